import type { PageRequest } from '../platform/pagination.js';

/** The items of `items` that pass `keep`, produced lazily (a first page reads only its prefix). */
export function* filterLazily<T>(items: Iterable<T>, keep: (item: T) => boolean): Generator<T> {
  for (const item of items) if (keep(item)) yield item;
}

/**
 * One page of a listing whose candidates were already filtered from the storage index: the
 * first page×perPage candidates are skipped without being built (the index says they would
 * build), then candidates are built until perPage answers. A candidate that fails to build
 * now (it changed since it was indexed) is left out and the next one takes its place, so
 * only the items shown, plus any such replacements, are read from their repositories.
 */
export async function buildPage<C, T>(candidates: Iterable<C>, request: PageRequest, build: (candidate: C) => Promise<T | null>): Promise<T[]> {
  const start = request.page * request.perPage;
  // page×perPage beyond 2^53−1 cannot be computed exactly and lies beyond any list.
  if (!Number.isSafeInteger(start) || request.perPage === 0) return [];
  const page: T[] = [];
  let skipped = 0;
  for (const candidate of candidates) {
    if (skipped < start) {
      skipped += 1;
      continue;
    }
    const item = await build(candidate);
    if (item !== null) page.push(item);
    if (page.length === request.perPage) break;
  }
  return page;
}
