import type { NodeDatabase } from '@forge-httpd/storage';

/** How long a routing count may be reused for search ordering, in ms. */
const SEED_COUNT_TTL_MS = 1000;

/**
 * Seed counts (node.db `routing` rows per RID) for ordering search results, each read at most
 * once per {@link SEED_COUNT_TTL_MS}: a search over many matches would otherwise query SQLite
 * once per match on every request. The same bound as the storage index's freshness; search
 * answers carry `max-age=600` anyway (docs/radicle-httpd.md §5.7).
 */
export class SeedCounts {
  private counts = new Map<string, number>();
  private since = Number.NEGATIVE_INFINITY;
  private generationNumber = 0;
  /** The generation whose counts {@link loadAll} loaded, -1 when none. */
  private completeGeneration = -1;

  constructor(
    private readonly nodeDb: Pick<NodeDatabase, 'seedCount' | 'seedCounts'>,
    private readonly ttlMs = SEED_COUNT_TTL_MS,
  ) {}

  /**
   * Changes whenever remembered counts are dropped (at most every `ttlMs`): results computed
   * from counts of one generation may be reused while it lasts.
   */
  generation(): number {
    const now = Date.now();
    // One generation per period: cheaper than a time per entry, and the map cannot grow stale.
    if (now - this.since > this.ttlMs) {
      this.counts = new Map();
      this.since = now;
      this.generationNumber += 1;
    }
    return this.generationNumber;
  }

  /** The number of nodes seeding `rid`, at most `ttlMs` old. */
  count(rid: string): number {
    this.generation();
    if (this.complete) return this.counts.get(rid) ?? 0;
    let count = this.counts.get(rid);
    if (count === undefined) {
      count = this.nodeDb.seedCount(rid);
      this.counts.set(rid, count);
    }
    return count;
  }

  /**
   * Loads the counts of every repository in one query (for orderings of whole listings, where
   * one query per repository would cost thousands); later {@link count}s of this generation use it.
   */
  loadAll(): void {
    const generation = this.generation();
    if (this.completeGeneration === generation) return;
    this.counts = this.nodeDb.seedCounts();
    this.completeGeneration = generation;
  }

  /** Whether the counts of this generation were loaded whole (absent = 0 seeds). */
  private get complete(): boolean {
    return this.completeGeneration === this.generationNumber;
  }
}
