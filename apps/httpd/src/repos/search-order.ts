import { compareRids, type Rid } from '@forge-httpd/identity';

/** A repository that matched a search, with what orders it. */
export interface SearchMatch {
  rid: Rid;
  /** Position of the match in the lower-cased name. */
  index: number;
  seeds: number;
}

/**
 * Where `query` occurs in `name`, both lower-cased, or -1 (docs/decisions.md "Listings");
 * an empty query matches every name at 0.
 */
export function searchMatchIndex(name: string, query: string): number {
  return name.toLowerCase().indexOf(query.toLowerCase());
}

/**
 * Search order (docs/decisions.md): matches at position 0 first, then seeds descending, then RID raw
 * bytes ascending; the position of a non-zero match is not used otherwise.
 */
export function compareSearchMatches(a: SearchMatch, b: SearchMatch): number {
  const bucket = Number(a.index > 0) - Number(b.index > 0);
  if (bucket !== 0) return bucket;
  if (a.seeds !== b.seeds) return b.seeds - a.seeds;
  return compareRids(a.rid, b.rid);
}

/**
 * {@link compareSearchMatches} without the RID step, for matches collected in RID order and
 * sorted with a stable sort (ties keep RID order without decoding base58 per comparison).
 */
export function compareSearchRank(a: Omit<SearchMatch, 'rid'>, b: Omit<SearchMatch, 'rid'>): number {
  const bucket = Number(a.index > 0) - Number(b.index > 0);
  return bucket !== 0 ? bucket : b.seeds - a.seeds;
}
