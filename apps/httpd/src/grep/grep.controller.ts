import { Controller, Get, Param, Query } from '@nestjs/common';
import type { GrepResponse } from '@forge-httpd/api-types';
import type { Oid } from '@forge-httpd/storage';
import { CacheControl } from '../platform/cache-control.js';
import { OidPipe } from '../platform/params.pipes.js';
import { QueryPipe } from '../platform/query.js';
import { CacheableResponse } from '../response-cache/cacheable-route.js';
import { type GrepQuery, GrepService } from './grep.service.js';

const GREP_QUERY = { q: 'text', path: 'path', ignoreCase: ['true', 'false'] } as const;

/** Code search at a commit (docs/api.md "Beyond radicle-httpd"). */
@Controller('repos/:rid')
export class GrepController {
  constructor(private readonly search: GrepService) {}

  @Get('grep/:sha')
  @CacheControl('immutable')
  @CacheableResponse({ query: GREP_QUERY })
  grep(@Param('rid') rid: string, @Param('sha', OidPipe) sha: Oid, @Query(new QueryPipe(GREP_QUERY)) query: GrepQuery): Promise<GrepResponse> {
    return this.search.grep(rid, sha, query);
  }
}
