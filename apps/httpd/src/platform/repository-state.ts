import { readdirSync, type Stats, statSync } from 'node:fs';
import path from 'node:path';
import { identityStamp, SETTLE_MS } from '@forge-httpd/storage';

/**
 * A file-system fingerprint of some refs of a bare repository, and whether it can be trusted:
 * a file changed less than {@link SETTLE_MS} ago may change again within the same timestamp
 * tick without its times moving ("racy git"), so such a stamp is never remembered.
 */
export interface RefsState {
  readonly stamp: string;
  readonly settled: boolean;
}

// How old every stamped time must be before a stamp is trusted (timestamps are coarse): the
// storage index's rule, shared so both layers agree on when a stamp means "unchanged".
export { SETTLE_MS };

/** Top-level ref folders whose refs the `branches` of commit detail and tree stats list. */
const BRANCH_FOLDERS = ['refs/heads', 'refs/remotes'];

const STAT_OPTIONS = { throwIfNoEntry: false } as const;

/**
 * Cheap change detection for refs, from `stat` alone (a few µs, no git process). Git never
 * rewrites a ref file in place: every loose-ref or packed-refs update writes a lock file and
 * renames it, which gives the ref file a new inode and touches its directory; so unchanged
 * (inode, size, mtime, ctime) of the right files and folders means unchanged refs.
 */
export class RepositoryStateProbe {
  /** Sub-folders of a refs folder, remembered per folder stamp. */
  private readonly listings = new Map<string, { stamp: string; folders: string[] }>();
  /**
   * States read during the current turn of the event loop: the requests of one batch of
   * socket reads share one set of `stat` calls (they are as concurrent as the check and the
   * send of a single request anyway). Cleared by `setImmediate`.
   */
  private readonly turn = new Map<string, RefsState | null>();

  /**
   * The state of what visibility depends on: `refs/rad/id` (the identity document's commit)
   * and `packed-refs`; null when neither exists (no loadable repository, e.g. its folder was
   * removed). A re-created folder has new inodes, so its stamp differs too.
   */
  identityState(gitDir: string): RefsState | null {
    // The storage index's stamp: one `stat` while `refs/rad/id` is loose, packed-refs otherwise.
    return this.memo(`i${gitDir}`, () => {
      const stamp = identityStamp(gitDir);
      return stamp === null || !stamp.hasRefs ? null : { stamp: stamp.key, settled: stamp.settled };
    });
  }

  /** The state of `refs/heads/**`, `refs/remotes/**` and `packed-refs` (folders only, walked). */
  branchesState(gitDir: string): RefsState {
    const state = this.memo(`b${gitDir}`, () => {
      const now = settleLimit();
      const packed = statSync(path.join(gitDir, 'packed-refs'), STAT_OPTIONS);
      const parts = [fileStamp(packed)];
      let settled = isSettled(packed, now);
      for (const folder of BRANCH_FOLDERS) {
        settled = this.walk(path.join(gitDir, folder), { parts, now }) && settled;
      }
      return { stamp: parts.join('|'), settled };
    });
    return state ?? { stamp: '-', settled: false };
  }

  private memo(key: string, read: () => RefsState | null): RefsState | null {
    const known = this.turn.get(key);
    if (known !== undefined) return known;
    if (this.turn.size === 0) setImmediate(() => this.turn.clear());
    const state = read();
    this.turn.set(key, state);
    return state;
  }

  /** Stamps `folder` and its sub-folders into `walk.parts`; true when all are settled. */
  private walk(folder: string, walk: { parts: string[]; now: number }): boolean {
    const stats = statSync(folder, STAT_OPTIONS);
    const stamp = fileStamp(stats);
    walk.parts.push(stamp);
    if (stats === undefined || !stats.isDirectory()) return true;
    let settled = isSettled(stats, walk.now);
    for (const sub of this.subFolders(folder, { stamp, settled })) {
      settled = this.walk(path.join(folder, sub), walk) && settled;
    }
    return settled;
  }

  private subFolders(folder: string, state: RefsState): string[] {
    const known = this.listings.get(folder);
    if (known !== undefined && known.stamp === state.stamp) return known.folders;
    const folders = readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    if (state.settled) {
      if (this.listings.size >= 4096) this.listings.clear();
      this.listings.set(folder, { stamp: state.stamp, folders });
    }
    return folders;
  }
}

function fileStamp(stats: Stats | undefined): string {
  if (stats === undefined) return '-';
  return `${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
}

/** File times (ms since the epoch, sub-ms precision) after this are too recent to trust. */
function settleLimit(): number {
  return Date.now() - SETTLE_MS;
}

function isSettled(stats: Stats | undefined, limit: number): boolean {
  return stats === undefined || (stats.mtimeMs < limit && stats.ctimeMs < limit);
}
