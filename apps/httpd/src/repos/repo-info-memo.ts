import type { RepoInfo } from '@forge-httpd/api-types';
import { BoundedCache } from '@forge-httpd/bounded-cache';
import type { Rid } from '@forge-httpd/identity';
import { RefTreeStamper } from '@forge-httpd/storage';
import { TurnMemo } from '../platform/turn-memo.js';

/** Repository infos remembered at most (least recently used dropped first): ~1–3 KB each. */
const REPO_INFO_MEMO_CAPACITY = 4096;

/** A built repository info and whether every part of it could be read. */
export interface BuiltRepoInfo {
  readonly info: RepoInfo;
  /** False when a part was left out or emptied after a read failed: such an info is not kept. */
  readonly complete: boolean;
}

/** Where the memo finds a repository's files. */
export interface RepoInfoMemoOptions {
  /** The repository's git directory in storage. */
  readonly gitDirOf: (rid: Rid) => string;
  /** The clock file times are compared with (ms since the epoch; tests move it ahead). */
  readonly now?: () => number;
  readonly capacity?: number;
}

interface Entry {
  readonly key: string;
  readonly info: RepoInfo;
}

interface Stamp {
  readonly key: string;
  readonly settled: boolean;
}

/**
 * Repository infos (docs/radicle-httpd.md §4.1) reused while the repository did not change, so
 * a listing page is assembled from ready items instead of ten repository reads. What an info
 * holds from the repository is a function of its refs (identity document, head, canonical refs,
 * COB counts; objects are content-addressed) and `HEAD`; its seed count and delegate aliases
 * come from the node's databases and are replaced by the caller on every use. Each use stamps
 * the repository — a `stat` per ref folder and of `HEAD` and `packed-refs` (the storage
 * library's {@link RefTreeStamper}) — and rebuilds when anything differs, so an answer is never
 * staler than a read of the repository would be. Only settled stamps are trusted (see
 * `SETTLE_MS`), and only infos built without a failed part are kept. Stamps are shared by the
 * requests of one turn of the event loop (as concurrent as one request's own reads), like the
 * response cache's probe.
 */
export class RepoInfoMemo {
  private readonly entries: BoundedCache<Rid, Entry>;
  private readonly pending = new Map<string, Promise<BuiltRepoInfo | null>>();
  private readonly stamper: RefTreeStamper;
  /** Stamps taken during the current turn of the event loop. */
  private readonly turn = new TurnMemo<Rid, Stamp>();

  constructor(private readonly options: RepoInfoMemoOptions) {
    this.stamper = new RefTreeStamper(options.now);
    this.entries = new BoundedCache({ maxEntries: options.capacity ?? REPO_INFO_MEMO_CAPACITY });
  }

  /**
   * The info of `rid`: the remembered one when its stamp is unchanged, else `build`'s (concurrent
   * callers with the same stamp share one build).
   * @param build - reads the repository; null when it cannot be shown
   * @returns the info, or null when `build` gave none
   */
  async get(rid: Rid, build: () => Promise<BuiltRepoInfo | null>): Promise<RepoInfo | null> {
    const stamp = this.stamp(rid);
    const known = this.entries.get(rid);
    if (known !== undefined && stamp.settled && known.key === stamp.key) return known.info;
    const pendingKey = `${rid}\0${stamp.key}`;
    let pending = this.pending.get(pendingKey);
    if (pending === undefined) {
      pending = build().finally(() => this.pending.delete(pendingKey));
      this.pending.set(pendingKey, pending);
    }
    const built = await pending;
    // Stamped before the build: a change during it shows as a different stamp next time.
    if (built !== null && built.complete && stamp.settled) this.entries.set(rid, { key: stamp.key, info: built.info });
    else this.entries.delete(rid);
    return built?.info ?? null;
  }

  private stamp(rid: Rid): Stamp {
    // HEAD names the head branch (docs/node-home.md §3.2); git replaces it by rename like a ref.
    return this.turn.get(rid, () => this.stamper.stamp(this.options.gitDirOf(rid), ['refs', 'HEAD']));
  }
}
