import { compareUtf8 } from '@forge-httpd/identity';
/**
 * Orderings the node uses for sets and maps (Rust `Ord` of the corresponding types), needed
 * wherever output order must match radicle's BTreeSet/BTreeMap iteration.
 */
import type { Nid } from '@forge-httpd/identity';
import type { CodeLocation, CodeRange } from './values.js';

/**
 * Orders NIDs by their public-key bytes. NIDs are base58 of a fixed-length value with a
 * non-zero first byte, and the base58 alphabet is in ASCII order, so length-then-text
 * comparison is numeric comparison, i.e. key byte order, without decoding.
 */
export function compareNids(a: Nid | string, b: Nid | string): number {
  return a.length - b.length || compareUtf8(a, b);
}

/** Orders `Option<CodeLocation>`: none first, then commit, path, old, new. */
export function compareLocations(a: CodeLocation | null, b: CodeLocation | null): number {
  if (a === null || b === null) return (a === null ? 0 : 1) - (b === null ? 0 : 1);
  return compareUtf8(a.commit, b.commit) || comparePaths(a.path, b.path) || compareOptionalRanges(a.old, b.old) || compareOptionalRanges(a.new, b.new);
}

// Rust `PathBuf` compares component by component.
function comparePaths(a: string, b: string): number {
  const left = a.split('/').filter((part) => part !== '' && part !== '.');
  const right = b.split('/').filter((part) => part !== '' && part !== '.');
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const diff = compareUtf8(left[i] as string, right[i] as string);
    if (diff !== 0) return diff;
  }
  return left.length - right.length;
}

function compareOptionalRanges(a: CodeRange | null, b: CodeRange | null): number {
  if (a === null || b === null) return (a === null ? 0 : 1) - (b === null ? 0 : 1);
  if (a.type !== b.type) return a.type === 'lines' ? -1 : 1;
  const line = a.type === 'chars' && b.type === 'chars' ? a.line - b.line : 0;
  return line || compareRangeSequences(a.range, b.range);
}

/**
 * Radicle compares `Range<usize>` as iterators (the sequences start..end), so an empty range
 * sorts first and a range that is a prefix of another sorts before it.
 */
function compareRangeSequences(a: { start: number; end: number }, b: { start: number; end: number }): number {
  const emptyA = a.end <= a.start;
  const emptyB = b.end <= b.start;
  if (emptyA || emptyB) return (emptyA ? 0 : 1) - (emptyB ? 0 : 1);
  return a.start - b.start || a.end - b.end;
}

/** Whether two sets hold the same members (Rust set equality). */
export function sameSet<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): boolean {
  return a.size === b.size && [...a].every((item) => b.has(item));
}
