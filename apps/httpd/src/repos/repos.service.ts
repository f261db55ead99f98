import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { RepoInfo, RepoSearchResult } from '@forge-httpd/api-types';
import { compareRids, type Did } from '@forge-httpd/identity';
import { isPublicSummary, type NodeHome, type RepositorySummary } from '@forge-httpd/storage';
import { RepositoryAccess } from '../repository-access/repository-access.service.js';
import { NODE_HOME } from '../platform/tokens.js';
import { buildPage, filterLazily } from './listing-page.js';
import { RepoOrder, type RepoSort } from './repo-order.js';
import { RepoInfoService } from './repo-info.service.js';
import { toSearchResult } from './repo-info.mapper.js';
import { SearchRanking } from './search-ranking.js';
import { SeedCounts } from './seed-counts.js';
import { matchTier } from './text-search.js';

/** Default `perPage` of the listings (docs/api.md "Limits"). */
export const DEFAULT_PER_PAGE = 10;

/** Query of `GET /repos`. */
export interface ListReposQuery {
  show?: 'all' | 'pinned';
  sort?: RepoSort;
  page?: number;
  perPage?: number;
}

/** Query of `GET /repos/search`. */
export interface SearchReposQuery {
  q?: string;
  page?: number;
  perPage?: number;
}

/**
 * Repository listings and single repository info (docs/api.md 6–8). Listings and search filter,
 * sort and paginate the storage index (libs/storage StorageIndex) and read only the
 * repositories of the requested page; `/repos/{rid}` reads the repository itself.
 */
@Injectable()
export class ReposService implements OnApplicationBootstrap {
  private readonly logger = new Logger('forge-httpd');
  private readonly ranking: SearchRanking;
  private readonly order: RepoOrder;

  constructor(
    @Inject(NODE_HOME) private readonly home: NodeHome,
    private readonly access: RepositoryAccess,
    private readonly repoInfo: RepoInfoService,
  ) {
    const seeds = new SeedCounts(home.nodeDb);
    this.ranking = new SearchRanking(home.storageIndex, seeds);
    this.order = new RepoOrder(home, seeds);
  }

  /** Starts building the index at startup, so the first listing usually finds it ready. */
  onApplicationBootstrap(): void {
    this.home.storageIndex.ready().catch((error: unknown) => this.logger.error(`Storage index build failed: ${String(error)}`));
  }

  /**
   * Public, loadable repositories with a valid project payload of the server's flavour, of a
   * `show` mode from the index, sorted by RID raw bytes: the configured pins (re-read per
   * request) or every repository; with `delegate`, only those whose current document lists
   * it. Produced lazily.
   */
  async candidates(show: 'all' | 'pinned', options: { delegate?: Did } = {}): Promise<Iterable<RepositorySummary>> {
    const index = this.home.storageIndex;
    await index.ready();
    const { delegate } = options;
    const pinned = (): RepositorySummary[] =>
      [...this.home.currentWebConfig().pinnedRepositories]
        .sort(compareRids)
        .map((rid) => index.get(rid))
        .filter((summary): summary is RepositorySummary => summary !== undefined);
    const source = show === 'pinned' ? pinned() : delegate === undefined ? index.list() : index.delegatedTo(delegate);
    const delegated = (summary: RepositorySummary): boolean => delegate === undefined || summary.document?.delegates.includes(delegate) === true;
    // Only repositories with a valid project of the server's flavour can be listed (see
    // RepoInfoService.listedRepoInfo); the index knows which, so pages skip the rest unread.
    return filterLazily(source, (summary) => isPublicSummary(summary) && summary.project !== null && delegated(summary));
  }

  /**
   * `GET /repos` (docs/radicle-httpd.md §5.6): public, seeded (effective policy allow), loadable repositories, in
   * RID order or (`sort`, radicle-httpd 0.27) by activity or seeds.
   */
  async listRepos(query: ListReposQuery): Promise<RepoInfo[]> {
    const show = query.show ?? 'pinned';
    const perPage = query.perPage ?? (show === 'pinned' ? this.home.currentWebConfig().pinnedRepositories.length : DEFAULT_PER_PAGE);
    const candidates = await this.sortedCandidates(show, query.sort ?? 'rid');
    // Taken once the candidates are ready (the first request waits for the index build).
    const facts = this.repoInfo.nodeFacts();
    const seeded = filterLazily(candidates, (summary) => facts.isSeeding(summary.rid));
    return buildPage(seeded, { page: query.page ?? 0, perPage }, (summary) => this.repoInfo.listedRepoInfo(summary.rid, facts));
  }

  /** Public candidates in `sort` order; the whole index is sorted once per change of its inputs. */
  private async sortedCandidates(show: 'all' | 'pinned', sort: RepoSort): Promise<Iterable<RepositorySummary>> {
    if (sort === 'rid') return this.candidates(show);
    const index = this.home.storageIndex;
    await index.ready();
    const all = index.list();
    // Private and unloadable repositories are skipped after ordering, like the RID listing does.
    const source = show === 'all' ? all : [...(await this.candidates(show))];
    const sorted = await this.order.sort(sort, source, all);
    return filterLazily(sorted, isPublicSummary);
  }

  /**
   * Reads the head time of every indexed repository ahead of the first listing sorted by
   * activity, stepping when `pace` allows (after start-up, between visitors' requests).
   * @returns the number of repositories read (0: read already)
   */
  async readActivityAhead(pace: () => Promise<void>): Promise<number> {
    const index = this.home.storageIndex;
    await index.ready();
    return this.order.readActivityAhead(index.list(), pace);
  }

  /** `GET /repos/{rid}`: read from the repository itself, never from the index. */
  async getRepo(ridText: string): Promise<RepoInfo> {
    return this.repoInfo.repoInfo(await this.access.openPublic(ridText));
  }

  /**
   * `GET /repos/search` (docs/decisions.md "Listings", docs/api.md operation 7): public repos
   * whose project name or description contains q, or whose words match q's with one typo
   * allowed; each shown item is re-checked against its repository's identity refs first (a
   * repository made private or removed, or whose project no longer matches, is never shown).
   */
  async searchRepos(query: SearchReposQuery): Promise<RepoSearchResult[]> {
    const index = this.home.storageIndex;
    await index.ready();
    const q = (query.q ?? '').toLowerCase();
    const matches = this.ranking.rank(q);
    const page = { page: query.page ?? 0, perPage: query.perPage ?? DEFAULT_PER_PAGE };
    // Aliases from the node's databases as they are now, each looked up once per version.
    const facts = this.repoInfo.nodeFacts();
    return buildPage(matches, page, async (match) => {
      const summary = await index.current(match.rid);
      const document = summary?.document;
      if (summary === undefined || !document || matchTier(summary, q) === null) return null;
      const delegates = this.repoInfo.delegateRefs(document.delegates, facts);
      return toSearchResult({ rid: match.rid, payloads: document.payloads, delegates, seeds: match.seeds });
    });
  }
}
