/**
 * `stat` fingerprints of files git replaces atomically (refs, packed-refs, directories of
 * refs). Git never rewrites such a file in place — each update writes a lock file and renames
 * it — so an unchanged (inode, size, mtime, ctime) means unchanged content, and a directory's
 * times change whenever an entry is added, renamed or removed.
 */
import { type Stats, statSync } from 'node:fs';

/**
 * How old every stamped time must be before a stamp is trusted. Timestamps are coarse, so a
 * second change within the same tick could leave a stamp unchanged ("racy git"): a stamp taken
 * while something changed less than this long ago is never trusted to mean "unchanged".
 */
export const SETTLE_MS = 100;

/** `stat` that answers undefined for a missing or unreachable file (ENOENT, ENOTDIR, EACCES…). */
export function statQuiet(file: string): Stats | undefined {
  try {
    return statSync(file, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** Whether `file` is a directory (following symbolic links); false when missing or unreachable. */
export function isDirectory(file: string): boolean {
  return statQuiet(file)?.isDirectory() === true;
}

/** The identifying part of a stat result; `-` for a missing file. */
export function statPart(stats: Stats | undefined): string {
  return stats === undefined ? '-' : `${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
}

/** Whether a file last changed before `limit` (a missing file is settled). */
export function isSettled(stats: Stats | undefined, limit: number): boolean {
  return stats === undefined || (stats.mtimeMs < limit && stats.ctimeMs < limit);
}
