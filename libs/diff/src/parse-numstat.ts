/**
 * The `--numstat -z` output of `git diff-tree` (git-diff(1), "--numstat" and "-z"):
 * `<added>\t<deleted>\t<path>\0` per file, or `<added>\t<deleted>\t\0<old path>\0<new path>\0`
 * for a rename or copy; binary files count `-\t-`. Records come in the order of the raw records
 * of the same diff (same diffcore pipeline), one per raw record (a type change is one record).
 */
import type { FileStats } from './types.js';

/** One numstat record: line counts (null for a binary file) and the path(s) as bytes. */
export interface NumstatRecord {
  readonly stats: FileStats | null;
  readonly oldPath: Buffer;
  readonly newPath: Buffer;
}

const COUNTS = /^(?:(\d+)\t(\d+)|-\t-)\t$/;

/**
 * Parses `git diff-tree -r -z --numstat` output; a record cut short at the end is dropped.
 * @param output - git's output, possibly cut at a byte cap
 * @returns the complete records, in git's order
 * @throws SyntaxError when a record does not have git's shape
 */
export function parseNumstat(output: Buffer): NumstatRecord[] {
  const records: NumstatRecord[] = [];
  let at = 0;
  while (at < output.length) {
    const tab = output.indexOf(0x09, output.indexOf(0x09, at) + 1);
    if (tab < 0) break;
    const match = COUNTS.exec(output.toString('latin1', at, tab + 1));
    if (match === null) throw new SyntaxError('malformed numstat record');
    const stats = match[1] === undefined ? null : { additions: Number(match[1]), deletions: Number(match[2]) };
    const paired = output[tab + 1] === 0;
    const first = readPath(output, paired ? tab + 2 : tab + 1);
    const second = first !== null && paired ? readPath(output, first.next) : first;
    if (first === null || second === null) break;
    records.push({ stats, oldPath: first.path, newPath: second.path });
    at = second.next;
  }
  return records;
}

function readPath(output: Buffer, at: number): { path: Buffer; next: number } | null {
  const end = output.indexOf(0, at);
  return end < 0 ? null : { path: output.subarray(at, end), next: end + 1 };
}
