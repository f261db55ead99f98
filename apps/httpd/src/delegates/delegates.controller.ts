import { Controller, Get, Param, Query } from '@nestjs/common';
import type { RepoInfo } from '@forge-httpd/api-types';
import type { Did } from '@forge-httpd/identity';
import { DidPipe } from '../platform/params.pipes.js';
import { QueryPipe } from '../platform/query.js';
import { LIST_REPOS_QUERY } from '../repos/repos.controller.js';
import type { ListReposQuery } from '../repos/repos.service.js';
import { DelegatesService } from './delegates.service.js';

/** docs/api.md 24. */
@Controller('delegates/:did')
export class DelegatesController {
  constructor(private readonly delegates: DelegatesService) {}

  @Get('repos')
  delegateRepos(@Param('did', DidPipe) did: Did, @Query(new QueryPipe(LIST_REPOS_QUERY)) query: ListReposQuery): Promise<RepoInfo[]> {
    return this.delegates.delegateRepos(did, query);
  }
}
