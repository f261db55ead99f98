import { Controller, Get, Param, Query } from '@nestjs/common';
import type { Patch } from '@forge-httpd/api-types';
import type { Oid } from '@forge-httpd/storage';
import { OidPipe } from '../platform/params.pipes.js';
import { CacheableResponse } from '../response-cache/cacheable-route.js';
import { type ParsedQuery, QueryPipe } from '../platform/query.js';
import { PatchesService } from './patches.service.js';

const LIST_QUERY = { page: 'uint', perPage: 'uint', status: ['open', 'draft', 'archived', 'merged', 'all'] } as const;

/** docs/api.md 22–23. */
@Controller('repos/:rid/patches')
export class PatchesController {
  constructor(private readonly patches: PatchesService) {}

  @Get()
  @CacheableResponse({ dependsOnCobs: true, query: LIST_QUERY })
  list(@Param('rid') rid: string, @Query(new QueryPipe(LIST_QUERY)) query: ParsedQuery<typeof LIST_QUERY>): Promise<Patch[]> {
    return this.patches.list(rid, { page: query.page ?? 0, perPage: query.perPage ?? 10, status: query.status ?? 'open' });
  }

  @Get(':id')
  @CacheableResponse({ dependsOnCobs: true })
  get(@Param('rid') rid: string, @Param('id', OidPipe) id: Oid): Promise<Patch> {
    return this.patches.get(rid, id);
  }
}
