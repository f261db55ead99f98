import path from 'node:path';
import { isDirectory, isSettled, SETTLE_MS, statPart as part, statQuiet } from '../git/objects/stat-stamp.js';
import { IDENTITY_REF } from '../identity-doc/load-identity-document.js';

/** A `stat` fingerprint of what a repository's identity depends on. */
export interface IdentityStamp {
  readonly key: string;
  /** False while a stamped file changed less than {@link SETTLE_MS} ago: never trusted to mean "unchanged". */
  readonly settled: boolean;
  /** False when neither `refs/rad/id` nor `packed-refs` exists: nothing loadable (yet). */
  readonly hasRefs: boolean;
}

/**
 * The identity state of a bare repository from `stat` alone (~1 µs per file, no git). Git never
 * rewrites a ref file in place — every update writes a lock file and renames it — so an
 * unchanged (inode, size, mtime, ctime) means unchanged content. While top-level
 * `refs/rad/id` exists loose it alone decides (git reads the loose ref before `packed-refs`),
 * so one `stat` suffices; without it, `packed-refs` is stamped too. A re-created directory has
 * new inodes.
 * @param gitDir - the bare repository
 * @param now - the time file times are judged against (ms since the epoch; tests pass a later one instead of waiting)
 * @returns the stamp, or null when the repository directory does not exist
 */
export function identityStamp(gitDir: string, now: number = Date.now()): IdentityStamp | null {
  const limit = now - SETTLE_MS;
  // Joined by hand: path.join's normalisation costs as much as a fifth of the stat itself.
  const id = statQuiet(`${gitDir}${path.sep}${IDENTITY_REF}`);
  if (id !== undefined) return { key: part(id), settled: isSettled(id, limit), hasRefs: true };
  const packed = statQuiet(path.join(gitDir, 'packed-refs'));
  // Neither file: a repository being created, or one that is gone.
  if (packed === undefined && !isDirectory(gitDir)) return null;
  return { key: `-|${part(packed)}`, settled: isSettled(packed, limit), hasRefs: packed !== undefined };
}
