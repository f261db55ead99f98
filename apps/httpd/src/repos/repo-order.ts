import type { Rid } from '@forge-httpd/identity';
import type { NodeHome, RepositorySummary } from '@forge-httpd/storage';
import { ActivityTimes } from './activity-times.js';
import type { SeedCounts } from './seed-counts.js';

/** Orders of `GET /repos?sort=` (radicle-httpd 0.27): RID bytes, head activity, seeds. */
export type RepoSort = 'rid' | 'activity' | 'seeding';

/** A memoised ordering of one candidate list. */
interface Ordering {
  readonly source: readonly RepositorySummary[];
  readonly stamp: string;
  readonly sorted: readonly RepositorySummary[];
}

/**
 * Orders listing candidates by activity (head committer time, newest first) or by seeds (most
 * first), ties by RID bytes: computed in-process from the storage index, the head times of
 * {@link ActivityTimes} and the node's routing table, never collapsed to RID order. An ordering
 * of the same candidate array is reused while its inputs did not change, so a warm listing
 * costs the same as `sort=rid`. Repositories without a readable head sort last by activity.
 */
export class RepoOrder {
  private readonly activity: ActivityTimes;
  private readonly memo = new Map<RepoSort, Ordering>();

  constructor(
    home: NodeHome,
    private readonly seeds: SeedCounts,
  ) {
    this.activity = new ActivityTimes(home);
  }

  /** See {@link ActivityTimes.readAhead}: `all` is the whole index list. */
  readActivityAhead(all: readonly RepositorySummary[], pace: () => Promise<void>): Promise<number> {
    return this.activity.readAhead(all, pace);
  }

  /**
   * Sorts `candidates` (RID-sorted) by `sort`; `all` is the whole index list, on which the
   * head times are refreshed.
   */
  async sort(sort: RepoSort, candidates: readonly RepositorySummary[], all: readonly RepositorySummary[]): Promise<readonly RepositorySummary[]> {
    if (sort === 'rid') return candidates;
    if (sort === 'activity') await this.activity.settle(all);
    else this.seeds.loadAll();
    const stamp = sort === 'activity' ? `${this.activity.generation}` : `${this.seeds.generation()}`;
    const known = this.memo.get(sort);
    if (known?.source === candidates && known.stamp === stamp) return known.sorted;
    const key = sort === 'activity' ? (rid: Rid) => this.activity.time(rid) ?? Number.NEGATIVE_INFINITY : (rid: Rid) => this.seeds.count(rid);
    const keyed = candidates.map((summary, position) => ({ summary, position, key: key(summary.rid) }));
    // Descending by key; equal keys keep the candidates' RID order (the sort is stable anyway).
    keyed.sort((a, b) => (b.key === a.key ? a.position - b.position : b.key > a.key ? 1 : -1));
    const sorted = keyed.map((entry) => entry.summary);
    // Only the full index list is worth remembering: pinned lists are short and change per request.
    if (candidates === all) this.memo.set(sort, { source: candidates, stamp, sorted });
    return sorted;
  }
}
