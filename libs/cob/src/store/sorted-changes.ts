/**
 * Sorted arrays changed in a few places: the elements that left and came in are placed by
 * binary search and the rest copied in slices, so bringing a 10,000-entry listing forward by
 * one object costs a few comparisons instead of one comparison and one copy per entry.
 */
import { InvalidDataError } from '@forge-httpd/identity';

/**
 * `sorted` without the elements of `removed` and with those of `added` in their places.
 * @param sorted - ordered by `compare`, no two elements equal by it
 * @param removed - elements of `sorted` (by identity)
 * @param added - elements equal by `compare` to none of `sorted` that stay
 * @param compare - the order of `sorted`
 * @throws InvalidDataError (`what`: `sorted changes`) when an element of `removed` is not in `sorted`: the caller's bookkeeping is wrong
 */
export function withChanges<T>(sorted: readonly T[], removed: readonly T[], added: readonly T[], compare: (a: T, b: T) => number): T[] {
  if (removed.length === 0 && added.length === 0) return [...sorted];
  const gone = removed.map((element) => {
    const at = firstIndexAfter(sorted, (other) => compare(other, element) < 0);
    if (sorted[at] !== element) throw new InvalidDataError('sorted changes', 'withChanges: a removed element is not in the array');
    return at;
  });
  gone.sort((a, b) => a - b);
  const coming = [...added].sort(compare);
  const pieces: T[][] = [];
  let from = 0;
  let next = 0;
  const placeUpTo = (end: number, limit: T | undefined): void => {
    // Added elements that sort before `limit` go before it, after what lies before.
    while (next < coming.length && (limit === undefined || compare(coming[next] as T, limit) < 0)) {
      const element = coming[next] as T;
      const at = Math.min(
        end,
        firstIndexAfter(sorted, (other) => compare(other, element) < 0, from),
      );
      pieces.push(sorted.slice(from, at), [element]);
      from = at;
      next += 1;
    }
  };
  for (const at of gone) {
    placeUpTo(at, sorted[at]);
    pieces.push(sorted.slice(from, at));
    from = at + 1;
  }
  placeUpTo(sorted.length, undefined);
  pieces.push(sorted.slice(from));
  return ([] as T[]).concat(...pieces);
}

/**
 * Binary search: the first index at or after `from` whose element is not `before` the place
 * looked for (`before` holds for a prefix of `sorted` and for nothing after it).
 */
export function firstIndexAfter<T>(sorted: readonly T[], before: (element: T) => boolean, from = 0): number {
  let low = from;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (before(sorted[middle] as T)) low = middle + 1;
    else high = middle;
  }
  return low;
}
