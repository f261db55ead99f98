import { open, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { type Rid, ridDirectoryName, sortRids } from '@forge-httpd/identity';
import { CommitGraphOverlays } from '../git/graph/commit-graph-overlays.js';
import { openGitRepository, type OpenGitRepositoryOptions } from '../git/open-git-repository.js';
import type { StorageRuntime } from '../git/storage-runtime.js';
import { IndexBudget } from '../git/limits/index-budget.js';
import { DEFAULT_HELD_COMMIT_ID_BYTES, HeldCommitIds } from '../git/history/held-commit-ids.js';
import { COMMIT_CHANGES_HEADER_BYTES, storedCounts } from '../git/history/commit-changes-file.js';
import { commitChangesSize } from '../git/history/commit-changes.js';
import { DEFAULT_LAST_COMMIT_BUDGET, DEFAULT_LAST_COMMIT_FILE_MIN_COMMITS } from '../git/history/last-commit-index.js';
import { DEFAULT_REACHABILITY_BUDGET } from '../git/graph/reachability-index.js';
import { isDirectory } from '../git/objects/stat-stamp.js';
import { StoredRepository } from '../repository/stored-repository.js';
import type { Flavour } from './flavour.js';
import { listStorageEntries, ridOfEntry } from './storage-entries.js';

/**
 * Opened repositories kept at most by default. Each costs a few KB of memos and readers, COB
 * stores included;
 * their git processes are bounded separately (`live-process-limit.ts`).
 */
const DEFAULT_MAX_OPEN_REPOSITORIES = 1024;

/**
 * The node's `storage/` directory: one bare git repository per RID (docs/node-home.md §1, §3).
 * Opened repositories are kept (one {@link StoredRepository}, hence one git reader, per RID)
 * so their memoised data survives between requests; the least recently opened are forgotten
 * past a bound, so memory does not grow with the number of repositories ever served.
 */
export class Storage {
  /** In recency order: the least recently opened first. */
  private readonly repositories = new Map<Rid, StoredRepository>();
  private readonly maxOpenRepositories: number;
  private readonly openListeners = new Set<(rid: Rid) => void>();
  /** One commit budget for the branch reachability indexes (and the commit-graphs held for them) of every opened repository. */
  private readonly reachability: IndexBudget;
  /** One byte budget for the last-commit-per-path indexes of every opened repository. */
  private readonly lastCommits: IndexBudget;
  /** The bound of commit ids held by every repository's answers being written. */
  private readonly heldCommitIds: HeldCommitIds;

  private readonly readers: OpenGitRepositoryOptions;
  /** The processes, limits and caches every repository of this storage reads with. */
  readonly runtime: StorageRuntime;
  /** Where last-commit indexes are kept across restarts (null: they are not), and from what size. */
  private readonly lastCommitFiles: { readonly dir: string; readonly minCommits: number } | null;
  /** Commit-graphs of ours for repositories that have none (null without a directory for them). */
  private readonly commitGraphs: CommitGraphOverlays | null;

  /**
   * @param root - the `storage/` directory
   * @param flavour - protocol identifiers of the home
   * @param options - `runtime` is shared by every repository's reads (processes, limits,
   *   caches); `log` receives git reader problems (a `cat-file` process that died), one
   *   line each; `now` is the clock ref stamps are judged by (default `Date.now`; tests move it
   *   ahead); `reachabilityCommits` bounds the branch reachability indexes together (~80 bytes
   *   per commit, default 250,000), `lastCommitBytes` the last-commit-per-path indexes (default 32 MiB),
   *   `heldCommitIdBytes` the commit ids held by answers being written (default 8 MiB);
   *   `commitGraphDir` is a directory of the caller's where commit-graphs are kept for
   *   repositories whose storage has none (see {@link CommitGraphOverlays}; none without it),
   *   `commitGraphMinObjects` the packed objects a repository needs to get one;
   *   `lastCommitDir` a directory of the caller's where last-commit indexes are kept across
   *   restarts (none without it), `lastCommitMinCommits` the commits an index needs to be kept;
   *   `maxOpenRepositories` the repositories kept open at most (default
   *   {@link DEFAULT_MAX_OPEN_REPOSITORIES})
   */
  constructor(
    readonly root: string,
    private readonly flavour: Flavour,
    options: Pick<OpenGitRepositoryOptions, 'runtime' | 'log' | 'now'> & StorageIndexBounds & StorageCommitGraphOptions & { maxOpenRepositories?: number },
  ) {
    this.runtime = options.runtime;
    this.readers = { runtime: options.runtime, log: options.log, now: options.now };
    this.maxOpenRepositories = Math.max(1, options.maxOpenRepositories ?? DEFAULT_MAX_OPEN_REPOSITORIES);
    this.commitGraphs =
      options.commitGraphDir == null
        ? null
        : new CommitGraphOverlays({
            root: options.commitGraphDir,
            processes: options.runtime.processes,
            minObjects: options.commitGraphMinObjects,
            log: options.log,
            now: options.now,
          });
    this.reachability = new IndexBudget(options.reachabilityCommits ?? DEFAULT_REACHABILITY_BUDGET);
    this.lastCommits = new IndexBudget(options.lastCommitBytes ?? DEFAULT_LAST_COMMIT_BUDGET);
    this.heldCommitIds = new HeldCommitIds(options.heldCommitIdBytes ?? DEFAULT_HELD_COMMIT_ID_BYTES);
    this.lastCommitFiles =
      options.lastCommitDir == null ? null : { dir: options.lastCommitDir, minCommits: options.lastCommitMinCommits ?? DEFAULT_LAST_COMMIT_FILE_MIN_COMMITS };
  }

  /**
   * RIDs of the repositories in storage, sorted by raw RID bytes: directories that are not
   * hidden, not `*.lock` and named by a RID. Other entries are ignored (heartwood would fail
   * the whole listing on a stray name; one stray directory should not hide every repository).
   */
  async listRepositoryIds(): Promise<Rid[]> {
    const entries = await listStorageEntries(this.root);
    return entries === null ? [] : sortRids(entries.keys());
  }

  /** The directory repository `rid` has (or would have) in storage. */
  gitDirOf(rid: Rid): string {
    return path.join(this.root, ridDirectoryName(rid));
  }

  /**
   * Calls `listener` with the RID of every {@link openRepository} call (and of every repository
   * {@link withRepository} opens for one use) until the returned function is called: how tests
   * and diagnostics see which repositories a request reads.
   */
  observeOpens(listener: (rid: Rid) => void): () => void {
    this.openListeners.add(listener);
    return () => this.openListeners.delete(listener);
  }

  /**
   * Opens the repository `rid`, or returns null when storage has no such directory. Loading its
   * identity document happens lazily, on first use. Text from outside becomes a `Rid` through
   * `parseRid` (libs/identity) first.
   */
  async openRepository(rid: Rid): Promise<StoredRepository | null> {
    const canonical = rid;
    const gitDir = this.announce(canonical);
    const cached = this.repositories.get(canonical);
    if (gitDir === null) {
      // Deleted since it was opened: drop the stale reader.
      if (cached) {
        this.repositories.delete(canonical);
        await cached.git.close();
      }
      return null;
    }
    if (cached) {
      this.repositories.delete(canonical);
      this.repositories.set(canonical, cached);
      return cached;
    }
    const repository = this.newRepository(canonical, gitDir);
    this.repositories.set(canonical, repository);
    this.forgetLeastRecent();
    this.commitGraphs?.consider(ridDirectoryName(canonical), gitDir);
    return repository;
  }

  /**
   * Runs `use` with the repository `rid` (null when storage has no such directory) for work in
   * the background, e.g. reading summaries or head times of every repository: a kept repository
   * is used as it is (its recency unchanged), another is kept while there is room, else opened
   * for `use` alone and closed after it, so a pass over thousands of repositories does not push
   * out the ones visitors use.
   */
  async withRepository<T>(rid: Rid, use: (repository: StoredRepository | null) => Promise<T>): Promise<T> {
    const kept = this.repositories.get(rid);
    if (kept !== undefined || this.repositories.size < this.maxOpenRepositories) return use(kept ?? (await this.openRepository(rid)));
    const gitDir = this.announce(rid);
    if (gitDir === null) return use(null);
    const repository = this.newRepository(rid, gitDir);
    try {
      return await use(repository);
    } finally {
      await repository.git.close();
    }
  }

  /** Repositories kept open now (at most the bound given at construction). */
  get openRepositories(): number {
    return this.repositories.size;
  }

  /** Bytes of commit ids held now by answers being written (long ranges and listings). */
  get heldCommitIdBytes(): number {
    return this.heldCommitIds.bytes;
  }

  /** Tells the open observers about `rid`; its directory, or null when storage has none. */
  private announce(rid: Rid): string | null {
    for (const listener of this.openListeners) listener(rid);
    const gitDir = this.gitDirOf(rid);
    return isDirectory(gitDir) ? gitDir : null;
  }

  private newRepository(rid: Rid, gitDir: string): StoredRepository {
    const files = this.lastCommitFiles;
    const lastCommitFile = files === null ? null : { file: keptIndexFile(files.dir, rid), minCommits: files.minCommits };
    const git = openGitRepository(gitDir, {
      ...this.readers,
      reachability: this.reachability,
      lastCommits: this.lastCommits,
      lastCommitFile,
      heldCommitIds: this.heldCommitIds,
    });
    return new StoredRepository(rid, git, this.flavour);
  }

  /**
   * Forgets the least recently opened repositories past the bound. They are not closed: a
   * request may still be reading through one. Their git processes stop once idle (or when the
   * live-process limits need the room), and their history indexes leave the shared budgets as
   * the least recently used; a later request opens the repository afresh.
   */
  private forgetLeastRecent(): void {
    for (const rid of this.repositories.keys()) {
      if (this.repositories.size <= this.maxOpenRepositories) return;
      this.repositories.delete(rid);
    }
  }

  /**
   * Looks at every repository in storage for a commit-graph of ours (see
   * {@link CommitGraphOverlays}), without opening readers: a big repository gets one before its
   * first visitor asks. A few file checks per repository, in slices that let requests in.
   * @returns the repositories looked at (0 without a directory for commit-graphs)
   */
  async prepareCommitGraphs(): Promise<number> {
    const overlays = this.commitGraphs;
    if (overlays === null) return 0;
    const rids = await this.listRepositoryIds();
    for (const [at, rid] of rids.entries()) {
      // A slice at a time, and only once the one before was looked at: queued all at once, a
      // big storage's candidates would be held in memory until the pass ended.
      if (at % PREPARE_SLICE === PREPARE_SLICE - 1) {
        await overlays.idle();
        await new Promise((resolve) => setImmediate(resolve));
      }
      overlays.consider(ridDirectoryName(rid), this.gitDirOf(rid), 'pass');
    }
    await overlays.idle();
    return rids.length;
  }

  /**
   * Reads the last-commit indexes kept in the cache directory back into memory (no git): the
   * most recently written first, as many as fit the budget together (each file's header says
   * what it weighs), so none pushes out another. Repositories are opened as
   * {@link withRepository} does.
   * @param pace - awaited before each repository (hold it back to let requests go first)
   * @returns the repositories whose index is held now
   */
  async restoreLastCommitIndexes(pace: () => Promise<void> = async () => undefined): Promise<number> {
    const files = this.lastCommitFiles;
    if (files === null) return 0;
    // Named by the repositories' directory names: no listing of storage (parsing every RID of
    // a big storage right after `ready` would hold the first requests back).
    const found: { rid: Rid; written: number; size: number }[] = [];
    for (const name of await readdir(files.dir).catch(() => [] as string[])) {
      const rid = name.endsWith(KEPT_INDEX_SUFFIX) ? ridOfEntry(name.slice(0, -KEPT_INDEX_SUFFIX.length)) : null;
      if (rid === null) continue;
      const file = path.join(files.dir, name);
      // A repository gone from storage: its index is of no use any more (nor is its header read).
      if (!isDirectory(this.gitDirOf(rid))) {
        await rm(file, { force: true });
        continue;
      }
      const header = await readKeptHeader(file).catch(() => null);
      if (header !== null) found.push({ rid, ...header });
    }
    let room = this.lastCommits.limit;
    let restored = 0;
    for (const { rid, size } of found.sort((a, b) => b.written - a.written)) {
      if (size > room) continue;
      await pace();
      if (await this.withRepository(rid, async (repository) => (await repository?.git.restoreHistoryIndex()) === true)) {
        room -= size;
        restored += 1;
      }
    }
    return restored;
  }

  /** Stops every opened repository's git processes. */
  async close(): Promise<void> {
    const repositories = [...this.repositories.values()];
    this.repositories.clear();
    await this.commitGraphs?.close();
    await Promise.all(repositories.map((repository) => repository.git.close()));
  }
}

/** A kept last-commit index's file: the repository's directory name and this. */
const KEPT_INDEX_SUFFIX = '.bin';

/** Where the last-commit index of `rid` is kept in `dir`. */
function keptIndexFile(dir: string, rid: Rid): string {
  return path.join(dir, `${ridDirectoryName(rid)}${KEPT_INDEX_SUFFIX}`);
}

/** Repositories {@link Storage.prepareCommitGraphs} looks at between two turns of the event loop. */
const PREPARE_SLICE = 200;

/** Bounds of the history indexes of all opened repositories together. */
interface StorageIndexBounds {
  reachabilityCommits?: number;
  lastCommitBytes?: number;
  /** Bytes of commit ids that answers being written hold together (`HeldCommitIds`). */
  heldCommitIdBytes?: number;
}

/**
 * Where and for which repositories commit-graphs of our own are kept, and last-commit indexes
 * (one file per repository whose indexed history has `lastCommitMinCommits` commits or more).
 */
export interface StorageCommitGraphOptions {
  commitGraphDir?: string | null;
  commitGraphMinObjects?: number;
  lastCommitDir?: string | null;
  lastCommitMinCommits?: number;
}

/** A kept last-commit file's time of writing and the budget its index needs; null when unreadable or not such a file. */
async function readKeptHeader(file: string): Promise<{ written: number; size: number } | null> {
  const handle = await open(file, 'r').catch(() => null);
  if (handle === null) return null;
  try {
    const head = Buffer.alloc(COMMIT_CHANGES_HEADER_BYTES);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const counts = storedCounts(head.subarray(0, bytesRead));
    return counts === null ? null : { written: (await handle.stat()).mtimeMs, size: commitChangesSize(counts) };
  } finally {
    await handle.close();
  }
}
