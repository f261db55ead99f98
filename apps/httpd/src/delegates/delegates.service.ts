import { Injectable } from '@nestjs/common';
import type { RepoInfo } from '@forge-httpd/api-types';
import type { Did } from '@forge-httpd/identity';
import { buildPage } from '../repos/listing-page.js';
import { RepoInfoService } from '../repos/repo-info.service.js';
import { DEFAULT_PER_PAGE, type ListReposQuery, ReposService } from '../repos/repos.service.js';

/** `GET /delegates/{did}/repos` (docs/api.md 24, docs/radicle-httpd.md §5.24). */
@Injectable()
export class DelegatesService {
  constructor(
    private readonly repos: ReposService,
    private readonly repoInfo: RepoInfoService,
  ) {}

  /**
   * Public repositories delegated to `did`; no seeding filter; perPage 10 in both modes.
   * Candidates come from the storage index; each shown repository's info is current (see
   * {@link RepoInfoService.listedRepoInfo}) and its delegates are checked again on it.
   */
  async delegateRepos(did: Did, query: ListReposQuery): Promise<RepoInfo[]> {
    const candidates = await this.repos.candidates(query.show ?? 'pinned', { delegate: did });
    const page = { page: query.page ?? 0, perPage: query.perPage ?? DEFAULT_PER_PAGE };
    const facts = this.repoInfo.nodeFacts();
    return buildPage(candidates, page, async (summary) => {
      const info = await this.repoInfo.listedRepoInfo(summary.rid, facts);
      return info?.delegates.some((delegate) => delegate.id === did) === true ? info : null;
    });
  }
}
