import type { Blame, Commit, LastCommits } from '@forge-httpd/api-types';
import type { BlameRange, Oid } from '@forge-httpd/storage';

/** A git name's bytes (latin1 string) as wire text: UTF-8, U+FFFD where the bytes are not. */
function nameText(bytes: string): string {
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/**
 * Blame ranges → wire Blame, keys `path, commit, lines, ranges, commits`.
 * @param input - requested path and commit, the file's line count, git's ranges, the commits they name
 */
export function toBlame(input: { path: string; commit: Oid; lines: number; ranges: readonly BlameRange[]; commits: ReadonlyMap<Oid, Commit> }): Blame {
  const ranges = input.ranges.map((range) => ({
    start: range.start,
    end: range.end,
    commit: range.commit,
    origPath: nameText(range.origPath),
    origStart: range.origStart,
  }));
  const commits: Record<string, Commit> = {};
  for (const range of input.ranges) {
    const commit = input.commits.get(range.commit);
    if (commit !== undefined) commits[range.commit] = commit;
  }
  return { path: input.path, commit: input.commit, lines: input.lines, ranges, commits };
}

/**
 * A folder's entries with their last commits → wire LastCommits, keys `path, entries, truncated`.
 * @param input - requested path, the entries (tree route order) with their commits, whether some were left out
 */
export function toLastCommits(input: {
  path: string;
  entries: ReadonlyArray<{ name: string; path: string; commit: Commit }>;
  truncated: boolean;
}): LastCommits {
  return { path: input.path, entries: input.entries.map(({ name, path, commit }) => ({ name, path, commit })), truncated: input.truncated };
}

/**
 * Lines as git counts them: one per `\n`, plus a last line without one.
 * @param bytes - file content
 */
export function countLines(bytes: Buffer): number {
  let lines = 0;
  for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) lines += 1;
  return bytes.length > 0 && bytes[bytes.length - 1] !== 10 ? lines + 1 : lines;
}
