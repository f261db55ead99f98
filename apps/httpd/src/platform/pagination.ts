/** A zero-based page of `perPage` items (docs/api.md "Pagination rule"). */
export interface PageRequest {
  page: number;
  perPage: number;
}

/**
 * Index of the first item of the page, or null when the page starts beyond any possible list
 * (page×perPage above 2^53−1: computed without trusting overflowing arithmetic).
 */
function pageStart({ page, perPage }: PageRequest): number | null {
  const start = page * perPage;
  return Number.isSafeInteger(start) ? start : null;
}

/**
 * The page as a range of a list (`start` = page×perPage), or null when it cannot hold any
 * item (perPage 0, or starting beyond any possible list).
 */
export function pageRange(request: PageRequest): { start: number; count: number } | null {
  const start = pageStart(request);
  return start === null || request.perPage === 0 ? null : { start, count: request.perPage };
}

/**
 * Builds items lazily and paginates what builds: candidates whose `build` returns null are
 * skipped and do not count (docs/radicle-httpd.md §5.6: repos that fail to load are left out), and no
 * candidate after the requested page is built.
 */
export async function collectPage<C, T>(candidates: Iterable<C>, request: PageRequest, build: (candidate: C) => Promise<T | null>): Promise<T[]> {
  const start = pageStart(request);
  if (start === null || request.perPage === 0) return [];
  const page: T[] = [];
  let kept = 0;
  for (const candidate of candidates) {
    const item = await build(candidate);
    if (item === null) continue;
    kept += 1;
    if (kept <= start) continue;
    page.push(item);
    if (page.length === request.perPage) break;
  }
  return page;
}
