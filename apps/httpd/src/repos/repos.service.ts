import { Inject, Injectable } from '@nestjs/common';
import type { RepoInfo, RepoSearchResult } from '@forge-httpd/api-types';
import { compareRids, type Rid } from '@forge-httpd/identity';
import type { NodeHome } from '@forge-httpd/storage';
import { collectPage, paginate } from '../platform/pagination.js';
import { RepositoryAccess } from '../platform/repository-access.service.js';
import { NODE_HOME } from '../platform/tokens.js';
import { RepoInfoService } from './repo-info.service.js';
import { toSearchResult } from './repo-info.mapper.js';
import { compareSearchMatches, type SearchMatch, searchMatchIndex } from './search-order.js';

/** Default `perPage` of the listings (api.md "Limits"). */
export const DEFAULT_PER_PAGE = 10;

/** Query of `GET /repos`. */
export interface ListReposQuery {
  show?: 'all' | 'pinned';
  page?: number;
  perPage?: number;
}

/** Query of `GET /repos/search`. */
export interface SearchReposQuery {
  q?: string;
  page?: number;
  perPage?: number;
}

/** Repository listings and single repository info (api.md 6–8). */
@Injectable()
export class ReposService {
  constructor(
    @Inject(NODE_HOME) private readonly home: NodeHome,
    private readonly access: RepositoryAccess,
    private readonly repoInfo: RepoInfoService,
  ) {}

  /**
   * Candidate RIDs of a `show` mode, sorted by raw bytes: the configured pins (re-read per
   * request) or every repository in storage. Also returns the pin count for `perPage`.
   */
  async candidates(show: 'all' | 'pinned'): Promise<Rid[]> {
    const rids = show === 'pinned' ? this.home.currentWebConfig().pinnedRepositories : await this.home.storage.listRepositoryIds();
    return [...rids].sort(compareRids);
  }

  /** `GET /repos` (B §5.6): public, seeded (effective policy allow), loadable repositories. */
  async listRepos(query: ListReposQuery): Promise<RepoInfo[]> {
    const show = query.show ?? 'pinned';
    const rids = await this.candidates(show);
    const perPage = query.perPage ?? (show === 'pinned' ? rids.length : DEFAULT_PER_PAGE);
    return collectPage(rids, { page: query.page ?? 0, perPage }, async (rid) => {
      if (!this.isSeeding(rid)) return null;
      const repository = await this.access.tryOpenPublic(rid);
      return repository === null ? null : this.repoInfo.tryRepoInfo(repository);
    });
  }

  /** `GET /repos/{rid}`. */
  async getRepo(ridText: string): Promise<RepoInfo> {
    return this.repoInfo.repoInfo(await this.access.openPublic(ridText));
  }

  /** `GET /repos/search` (Part A "Listings"): public repos whose project name contains q. */
  async searchRepos(query: SearchReposQuery): Promise<RepoSearchResult[]> {
    const q = query.q ?? '';
    const found: { match: SearchMatch; result: RepoSearchResult }[] = [];
    for (const rid of await this.home.storage.listRepositoryIds()) {
      const item = await this.searchItem(rid, q);
      if (item !== null) found.push(item);
    }
    found.sort((a, b) => compareSearchMatches(a.match, b.match));
    const page = { page: query.page ?? 0, perPage: query.perPage ?? DEFAULT_PER_PAGE };
    return paginate(found, page).map((item) => item.result);
  }

  private async searchItem(rid: Rid, q: string): Promise<{ match: SearchMatch; result: RepoSearchResult } | null> {
    try {
      const repository = await this.access.tryOpenPublic(rid);
      const project = repository === null ? null : await repository.project();
      if (repository === null || project === null) return null;
      const index = searchMatchIndex(project.name, q);
      if (index < 0) return null;
      const document = await repository.identityDocument();
      const seeds = this.home.nodeDb.seedCount(rid);
      const delegates = this.repoInfo.delegateRefs(document.delegates);
      return { match: { rid, index, seeds }, result: toSearchResult({ rid, payloads: document.payloads, delegates, seeds }) };
    } catch {
      // A repository that fails to load is not a search result (B §5.7).
      return null;
    }
  }

  /** Effective seeding policy is allow: the policies.db row, else the startup default. */
  private isSeeding(rid: Rid): boolean {
    return this.home.effectiveSeedingPolicy(rid).policy === 'allow';
  }
}
