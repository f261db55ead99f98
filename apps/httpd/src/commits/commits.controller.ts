import { Controller, Get, Param, Query, type StreamableFile } from '@nestjs/common';
import type { Activity, Commit, CommitCountStats, CommitDetail, RangeDiffResponse, RangeDiffStats } from '@forge-httpd/api-types';
import type { Oid } from '@forge-httpd/storage';
import type { FastifyRequest } from 'fastify';
import { CacheControl } from '../platform/cache-control.js';
import { CacheableResponse } from '../response-cache/cacheable-route.js';
import { OidPipe } from '../platform/params.pipes.js';
import { PAGE_QUERY, QueryPipe } from '../platform/query.js';
import { type CommitsQuery, CommitsService } from './commits.service.js';
import { BigPage } from '../platform/page-builds.js';

const COMMITS_QUERY = { parent: 'oid', since: 'int', until: 'int', path: 'text', author: 'text', q: 'text', ...PAGE_QUERY } as const;

/** Only a list anchored at an explicit commit is immutable (docs/radicle-httpd.md §2.2, §5.9). */
function hasParent(request: FastifyRequest): boolean {
  const query = request.query as Record<string, unknown> | undefined;
  return query !== undefined && Object.hasOwn(query, 'parent');
}

/** docs/api.md 9–12: history, one commit, a range diff, activity; and radicle-httpd 0.26's counts. */
@Controller('repos/:rid')
export class CommitsController {
  constructor(private readonly commits: CommitsService) {}

  @Get('commits')
  @CacheControl((request) => (hasParent(request) ? 'immutable' : null))
  @CacheableResponse({ query: COMMITS_QUERY, requiredQuery: 'parent' })
  listCommits(@Param('rid') rid: string, @Query(new QueryPipe(COMMITS_QUERY)) query: CommitsQuery): Promise<Commit[] | StreamableFile> {
    return this.commits.listCommits(rid, query);
  }

  @BigPage()
  @Get('commits/:sha')
  @CacheControl('immutable')
  // `branches` lists the refs containing the commit: served from the cache while they are unchanged.
  @CacheableResponse({ dependsOnBranches: true })
  getCommit(@Param('rid') rid: string, @Param('sha', OidPipe) sha: Oid): Promise<CommitDetail> {
    return this.commits.getCommit(rid, sha);
  }

  @BigPage()
  @Get('diff/:base/:oid')
  @CacheControl('immutable')
  @CacheableResponse()
  getRange(@Param('rid') rid: string, @Param('base', OidPipe) base: Oid, @Param('oid', OidPipe) oid: Oid): Promise<RangeDiffResponse | StreamableFile> {
    return this.commits.getRange(rid, { base, oid });
  }

  @BigPage()
  @Get('diff/:base/:oid/stats')
  @CacheControl('immutable')
  @CacheableResponse()
  getRangeStats(@Param('rid') rid: string, @Param('base', OidPipe) base: Oid, @Param('oid', OidPipe) oid: Oid): Promise<RangeDiffStats> {
    return this.commits.getRangeStats(rid, { base, oid });
  }

  @Get('stats/commits/:sha')
  @CacheControl('immutable')
  @CacheableResponse()
  getCommitCount(@Param('rid') rid: string, @Param('sha', OidPipe) sha: Oid): Promise<CommitCountStats> {
    return this.commits.getCommitCount(rid, sha);
  }

  @Get('activity')
  @CacheControl('activity')
  getActivity(@Param('rid') rid: string): Promise<Activity> {
    return this.commits.getActivity(rid);
  }
}
