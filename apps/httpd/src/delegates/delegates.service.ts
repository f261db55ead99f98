import { Injectable } from '@nestjs/common';
import type { RepoInfo } from '@forge-httpd/api-types';
import type { Did } from '@forge-httpd/identity';
import { RepositoryAccess } from '../repository-access/repository-access.service.js';
import { buildPage } from '../repos/listing-page.js';
import { RepoInfoService } from '../repos/repo-info.service.js';
import { DEFAULT_PER_PAGE, type ListReposQuery, ReposService } from '../repos/repos.service.js';

/** `GET /delegates/{did}/repos` (docs/api.md 24, docs/radicle-httpd.md §5.24). */
@Injectable()
export class DelegatesService {
  constructor(
    private readonly repos: ReposService,
    private readonly access: RepositoryAccess,
    private readonly repoInfo: RepoInfoService,
  ) {}

  /**
   * Public repositories delegated to `did`; no seeding filter; perPage 10 in both modes.
   * Candidates come from the storage index; each shown repository is read and its delegates
   * checked again from its current document.
   */
  async delegateRepos(did: Did, query: ListReposQuery): Promise<RepoInfo[]> {
    const candidates = await this.repos.candidates(query.show ?? 'pinned', { delegate: did });
    const page = { page: query.page ?? 0, perPage: query.perPage ?? DEFAULT_PER_PAGE };
    return buildPage(candidates, page, async (summary) => {
      const repository = await this.access.tryOpenPublic(summary.rid);
      if (repository === null) return null;
      const document = await repository.identityDocument().catch(() => null);
      if (document === null || !document.delegates.includes(did)) return null;
      return this.repoInfo.tryListedRepoInfo(repository);
    });
  }
}
