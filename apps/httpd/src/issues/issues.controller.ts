import { Controller, Get, Param, Query } from '@nestjs/common';
import type { Issue } from '@forge-httpd/api-types';
import type { Oid } from '@forge-httpd/storage';
import { OidPipe } from '../platform/params.pipes.js';
import { CacheableResponse } from '../response-cache/cacheable-route.js';
import { type ParsedQuery, QueryPipe } from '../platform/query.js';
import { IssuesService } from './issues.service.js';

const LIST_QUERY = { page: 'uint', perPage: 'uint', status: ['open', 'closed', 'all'] } as const;

/** docs/api.md 20–21. */
@Controller('repos/:rid/issues')
export class IssuesController {
  constructor(private readonly issues: IssuesService) {}

  @Get()
  @CacheableResponse({ dependsOnCobs: true, query: LIST_QUERY })
  list(@Param('rid') rid: string, @Query(new QueryPipe(LIST_QUERY)) query: ParsedQuery<typeof LIST_QUERY>): Promise<Issue[]> {
    return this.issues.list(rid, { page: query.page ?? 0, perPage: query.perPage ?? 10, status: query.status ?? 'open' });
  }

  @Get(':id')
  @CacheableResponse({ dependsOnCobs: true })
  get(@Param('rid') rid: string, @Param('id', OidPipe) id: Oid): Promise<Issue> {
    return this.issues.get(rid, id);
  }
}
