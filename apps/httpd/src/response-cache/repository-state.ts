import { identityStamp, RefTreeStamper, SETTLE_MS } from '@forge-httpd/storage';
import { TurnMemo } from '../platform/turn-memo.js';

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

/** Where issues and patches are: each peer's `refs/namespaces/<nid>/refs/cobs/<type>/<id>`. */
const NAMESPACE_FOLDERS = ['refs/namespaces'];

/** What the probe reads besides the repository's files. */
export interface RepositoryStateSources {
  /** The clock file times are judged by (the node home's: tests move it ahead instead of waiting). */
  readonly now?: () => number;
  /**
   * A stamp of the node's databases, which an issue or patch answer reads authors' aliases
   * from (SQLite's `data_version` of each); throws while one is locked.
   */
  readonly databasesStamp?: () => string;
}

/**
 * Cheap change detection for refs, from `stat` alone (a few µs, no git process): the storage
 * library's identity stamp and ref-folder stamps, memoised for one turn of the event loop.
 */
export class RepositoryStateProbe {
  private readonly stamper: RefTreeStamper;
  /** States read during the current turn of the event loop (see {@link TurnMemo}). */
  private readonly turn = new TurnMemo<string, RefsState | null>();
  /** The databases' state read during the current turn (one for all repositories). */
  private readonly databasesTurn = new TurnMemo<string, RefsState>();

  private readonly now: () => number;
  private readonly databasesStamp: () => string;

  constructor(sources: RepositoryStateSources = {}) {
    this.now = sources.now ?? Date.now;
    this.databasesStamp = sources.databasesStamp ?? (() => '');
    this.stamper = new RefTreeStamper(this.now);
  }

  /**
   * The state of what visibility depends on: `refs/rad/id` (the identity document's commit)
   * and `packed-refs`; null when neither exists (no loadable repository, e.g. its folder was
   * removed). A re-created folder has new inodes, so its stamp differs too.
   */
  identityState(gitDir: string): RefsState | null {
    // The storage index's stamp: one `stat` while `refs/rad/id` is loose, packed-refs otherwise.
    return this.turn.get(`i${gitDir}`, () => {
      const stamp = identityStamp(gitDir, this.now());
      return stamp === null || !stamp.hasRefs ? null : { stamp: stamp.key, settled: stamp.settled };
    });
  }

  /** The state of `refs/heads/**`, `refs/remotes/**` and `packed-refs` (folders only, walked). */
  branchesState(gitDir: string): RefsState {
    const state = this.turn.get(`b${gitDir}`, () => {
      const { key, settled } = this.stamper.stamp(gitDir, BRANCH_FOLDERS);
      return { stamp: key, settled };
    });
    return state ?? { stamp: '-', settled: false };
  }

  /**
   * The state an issue or patch answer is evaluated from: every namespace's refs (the objects'
   * tips; `packed-refs` is part of the walk), the identity (its delegates judge what counts)
   * and the node's databases (aliases). Unsettled while any part is, or a database is locked.
   */
  cobsState(gitDir: string): RefsState {
    const state = this.turn.get(`c${gitDir}`, () => {
      const identity = this.identityState(gitDir);
      const refs = this.stamper.stamp(gitDir, NAMESPACE_FOLDERS);
      const databases = this.databasesTurn.get('', () => {
        try {
          return { stamp: this.databasesStamp(), settled: true };
        } catch {
          // A locked database: nothing can be vouched for until it can be read.
          return { stamp: '-', settled: false };
        }
      });
      if (identity === null) return null;
      return { stamp: `${identity.stamp}#${refs.key}#${databases.stamp}`, settled: identity.settled && refs.settled && databases.settled };
    });
    return state ?? { stamp: '-', settled: false };
  }
}
