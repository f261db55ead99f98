import { compareRids, type Rid } from '@forge-httpd/identity';
import type { MatchTier } from './text-search.js';

/** A repository that matched a search, with what orders it. */
export interface SearchMatch {
  rid: Rid;
  /** How it matched (name at position 0, name elsewhere, description, words). */
  tier: MatchTier;
  seeds: number;
}

/**
 * Search order (docs/decisions.md "Listings", docs/api.md operation 7): by tier (names starting
 * with the query, names containing it elsewhere, descriptions containing it, word matches), then
 * seeds descending, then RID raw bytes ascending.
 */
export function compareSearchMatches(a: SearchMatch, b: SearchMatch): number {
  return compareSearchRank(a, b) || compareRids(a.rid, b.rid);
}

/**
 * {@link compareSearchMatches} without the RID step, for matches collected in RID order and
 * sorted with a stable sort (ties keep RID order without decoding base58 per comparison).
 */
export function compareSearchRank(a: Omit<SearchMatch, 'rid'>, b: Omit<SearchMatch, 'rid'>): number {
  return a.tier !== b.tier ? a.tier - b.tier : b.seeds - a.seeds;
}
