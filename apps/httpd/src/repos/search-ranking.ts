import { BoundedCache } from '@forge-httpd/bounded-cache';
import type { StorageIndex } from '@forge-httpd/storage';
import { TextSearch } from './text-search.js';
import { compareSearchRank, type SearchMatch } from './search-order.js';
import type { SeedCounts } from './seed-counts.js';

/** Rankings kept for this many distinct queries (least recently used dropped first). */
const MAX_QUERIES = 64;

/**
 * Matches from which every seed count is read in one query rather than one query each: one
 * query over the whole table costs as much as a few thousand single-repository ones.
 */
export const LOAD_ALL_SEEDS_MATCHES = 4096;

interface Ranking {
  /** Index version and seed-count generation the ranking was computed from. */
  readonly stamp: string;
  readonly matches: readonly SearchMatch[];
}

/**
 * The ordered search matches of a query (docs/decisions.md "Listings"): names from the storage
 * index, seeds from {@link SeedCounts}. A ranking is reused while neither the index changed nor
 * the seed counts were refreshed (at most a second), so repeated queries — the common case —
 * cost a map lookup, however many repositories match.
 */
export class SearchRanking {
  private readonly texts = new TextSearch();
  private readonly rankings = new BoundedCache<string, Ranking>({ maxEntries: MAX_QUERIES });

  constructor(
    private readonly index: StorageIndex,
    private readonly seeds: SeedCounts,
  ) {}

  /** Matches of `query` (lower-cased), ordered: by tier, seeds descending, RID bytes. */
  rank(query: string): readonly SearchMatch[] {
    const stamp = `${this.index.version}:${this.seeds.generation()}`;
    const known = this.rankings.get(query);
    if (known?.stamp === stamp) return known.matches;
    const ranking = { stamp, matches: this.compute(query) };
    this.rankings.set(query, ranking);
    return ranking.matches;
  }

  private compute(query: string): SearchMatch[] {
    const found = this.texts.find({ version: this.index.version, summaries: this.index.list() }, query);
    if (found.length >= LOAD_ALL_SEEDS_MATCHES) this.seeds.loadAll();
    const matches = found.map(({ summary, tier }) => ({ rid: summary.rid, tier, seeds: this.seeds.count(summary.rid) }));
    // Found in RID order and sorted stably: ties stay in RID order (docs/decisions.md step 3).
    return matches.sort(compareSearchRank);
  }
}
