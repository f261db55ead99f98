import { Controller, Get, Param, Query } from '@nestjs/common';
import type { RepoInfo, RepoSearchResult } from '@forge-httpd/api-types';
import { CacheControl } from '../platform/cache-control.js';
import { PAGE_QUERY, QueryPipe } from '../platform/query.js';
import { type ListReposQuery, ReposService, type SearchReposQuery } from './repos.service.js';

/** Query schema shared by `/repos` and `/delegates/{did}/repos`. */
export const LIST_REPOS_QUERY = { show: ['all', 'pinned'], ...PAGE_QUERY } as const;
const SEARCH_QUERY = { q: 'string', ...PAGE_QUERY } as const;
/** `/repos` also takes `sort` (radicle-httpd 0.27); the delegate listing does not. */
const REPOS_QUERY = { ...LIST_REPOS_QUERY, sort: ['rid', 'activity', 'seeding'] } as const;

/** docs/api.md 6–8. */
@Controller('repos')
export class ReposController {
  constructor(private readonly repos: ReposService) {}

  @Get()
  listRepos(@Query(new QueryPipe(REPOS_QUERY)) query: ListReposQuery): Promise<RepoInfo[]> {
    return this.repos.listRepos(query);
  }

  @Get('search')
  @CacheControl('short')
  searchRepos(@Query(new QueryPipe(SEARCH_QUERY)) query: SearchReposQuery): Promise<RepoSearchResult[]> {
    return this.repos.searchRepos(query);
  }

  @Get(':rid')
  getRepo(@Param('rid') rid: string): Promise<RepoInfo> {
    return this.repos.getRepo(rid);
  }
}
