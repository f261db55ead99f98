import { ridFromOid } from '@forge-httpd/identity';
import type { RepositorySummary, StorageIndex } from '@forge-httpd/storage';
import { LOAD_ALL_SEEDS_MATCHES, SearchRanking } from './search-ranking.js';
import { SeedCounts } from './seed-counts.js';

/** A public repository named `name` (only what the ranking reads). */
function summary(at: number, name: string): RepositorySummary {
  return {
    rid: ridFromOid(at.toString(16).padStart(40, '0')),
    identityHead: null,
    document: { visibility: { type: 'public' } },
    project: null,
    searchName: name,
    error: null,
  } as unknown as RepositorySummary;
}

/** A node database answering seed counts from `seeds`, counting its queries. */
function countingDb(seeds: Map<string, number>): { seedCount(rid: string): number; seedCounts(): Map<string, number>; queries: { one: number; all: number } } {
  const queries = { one: 0, all: 0 };
  return {
    queries,
    seedCount: (rid) => {
      queries.one += 1;
      return seeds.get(rid) ?? 0;
    },
    seedCounts: () => {
      queries.all += 1;
      return new Map(seeds);
    },
  };
}

/** Ranks `query` over `count` repositories named `repo-<n>` (every third one seeded `n % 5` times). */
function rankOver(count: number, query: string): { ranked: string[]; exact: string[]; queries: { one: number; all: number } } {
  const summaries = Array.from({ length: count }, (_, at) => summary(at, `repo-${at}`));
  const seeds = new Map(summaries.filter((_, at) => at % 3 === 0).map((item, at) => [item.rid, at % 5] as const));
  const db = countingDb(seeds);
  const index = { version: 1, list: () => summaries } as unknown as StorageIndex;
  const matches = new SearchRanking(index, new SeedCounts(db, 60_000)).rank(query);
  const ranked = matches.map((match) => match.rid);
  return { ranked, exact: matches.filter((match) => match.tier <= 1).map((match) => match.rid), queries: db.queries };
}

describe('SearchRanking', () => {
  it('reads every seed count in one query for a query matching many repositories, ranking as one query each does', () => {
    const many = rankOver(LOAD_ALL_SEEDS_MATCHES + 10, 'repo');
    expect(many.queries).toEqual({ one: 0, all: 1 });
    expect(many.ranked).toHaveLength(LOAD_ALL_SEEDS_MATCHES + 10);
    // The same repositories ranked with one query each (a narrower query over the same names).
    const narrow = rankOver(LOAD_ALL_SEEDS_MATCHES + 10, 'repo-1');
    expect(narrow.queries.all).toBe(0);
    expect(narrow.queries.one).toBe(narrow.ranked.length);
    // Its name matches (the word matches of `repo` and `1` come after them) keep the same order.
    expect(narrow.exact.length).toBeGreaterThan(0);
    expect(narrow.ranked.slice(0, narrow.exact.length)).toEqual(narrow.exact);
    expect(many.ranked.filter((rid) => narrow.exact.includes(rid))).toEqual(narrow.exact);
  });
});
