import type { NodeDatabase } from '@forge-httpd/storage';

/** How long a routing count may be reused for search ordering, in ms. */
export const SEED_COUNT_TTL_MS = 1000;

/**
 * Seed counts (node.db `routing` rows per RID) for ordering search results, each read at most
 * once per {@link SEED_COUNT_TTL_MS}: a search over many matches would otherwise query SQLite
 * once per match on every request. The same bound as the storage index's freshness; search
 * answers carry `max-age=600` anyway (B §5.7).
 */
export class SeedCounts {
  private counts = new Map<string, number>();
  private since = Number.NEGATIVE_INFINITY;
  private generationNumber = 0;

  constructor(
    private readonly nodeDb: Pick<NodeDatabase, 'seedCount'>,
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
    let count = this.counts.get(rid);
    if (count === undefined) {
      count = this.nodeDb.seedCount(rid);
      this.counts.set(rid, count);
    }
    return count;
  }
}
