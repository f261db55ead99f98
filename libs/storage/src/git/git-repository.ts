/**
 * The one interface through which the rest of forge-httpd reads git (ARCHITECTURE.md
 * "Git access"), made of one interface per kind of read. {@link openGitRepository} implements it
 * over the repository's files, with git processes for what the files do not answer.
 */
import type { BlameRange, BlameRequest } from './history/blame.js';
import type { GitCommit, GitObject, GitObjectInfo, GitTag, TreeEntry } from './format/git-objects.js';
import type { Oid } from './objects/oid.js';
import type { OidList } from './objects/oid-list.js';
import type { ChunkedReadOptions, CommitRange } from './history/commit-range.js';
import type { GrepOptions, GrepResult } from './processes/git-grep.js';

/** A reference and the object it points to (symbolic refs resolved). */
export interface RefEntry {
  readonly name: string;
  readonly oid: Oid;
}

/** Which commits {@link GitRepository.walkCommits} returns. */
export interface WalkCommitsOptions {
  /** Start commit (included). */
  readonly from: Oid;
  /** Commits reachable from these are left out (`git rev-list from ^exclude…`). */
  readonly exclude?: readonly Oid[];
  /** Matching commits to drop first (after the time filter). */
  readonly skip?: number;
  /** Maximum number of commits returned (after skip). */
  readonly maxCount?: number;
  /** Keep commits with committer time >= since (seconds). */
  readonly since?: number;
  /** Keep commits with committer time < until (seconds). */
  readonly until?: number;
  /**
   * Keep the commits `git rev-list <from> -- <path>` names (the path read literally; git's
   * default history simplification). Invalid paths (`..`, empty segments) throw InvalidInputError.
   */
  readonly path?: string;
  /** Keep commits whose author name or email holds this, case-insensitively (history/filtered-walk.ts). */
  readonly author?: string;
  /** Keep commits whose message holds this, case-insensitively. */
  readonly message?: string;
}

/** Input of {@link GitRepository.diffPatch}. */
export interface DiffPatchOptions {
  /** Old side; null = the empty tree (root commit). */
  readonly from: Oid | null;
  /** New side (commit or tree). */
  readonly to: Oid;
  /** Stop and report truncation when the patch is longer than this. */
  readonly maxBytes: number;
  /**
   * Told the distinct blob ids of the raw records (zero ids and submodules left out, in record
   * order) as soon as git has written them all, before the patches: a caller can start reading
   * the diff's blobs while git computes the patches. At most once, and not at all when the
   * records cannot be read early (a root commit's diff, git failing); diffNumstat ignores it.
   */
  readonly onBlobIds?: (ids: readonly Oid[]) => void;
  /**
   * Told once the diff needs no more turns of this thread to get under way: at once when the
   * long-lived diff process is running (the request is written, or waits behind the ones before
   * it), else once the process has started and has the request (starting it takes turns of
   * the event loop). A caller with work of its own on this thread can do it then, while git
   * computes. Not told when the diff goes to a process of its own (a root commit's, a cut one).
   */
  readonly onQueued?: () => void;
}

/** Input of {@link GitRepository.diffNumstat}: the same sides and cap as a patch. */
export type DiffNumstatOptions = DiffPatchOptions;

/** Output of {@link GitRepository.diffPatch} (and of `diffNumstat`, whose `patch` holds numstat records). */
export interface DiffPatch {
  /** Raw `git diff-tree -r -z --raw -p` bytes: NUL-separated raw records, `\0`, patch text (at most maxBytes). */
  readonly patch: Buffer;
  readonly truncated: boolean;
}

/** A distinct author identity. */
export interface Contributor {
  readonly name: string;
  readonly email: string;
}

/** How an object read is made. */
export interface ReadOptions {
  /**
   * One of many reads issued together (a listing evaluating thousands of collaborative
   * objects, a diff's blobs): answered by the pipelined `cat-file` process (started if need
   * be), which inflates on another core, instead of in process on the event loop's thread.
   */
  readonly bulk?: boolean;
  /**
   * A step of a history walk, which the next read waits for: answered in process whenever
   * the files can, however busy this thread and also while cat-file runs (a round trip per
   * step costs more than the inflate of a commit or a tree).
   */
  readonly sequential?: boolean;
}

/**
 * Reading objects: from the pack and loose files in process when they answer exactly, else
 * through the repository's `cat-file` process.
 */
export interface GitObjectReads {
  /** Type and content of any object; null when absent. */
  readObject(oid: Oid, options?: ReadOptions): Promise<GitObject | null>;
  /** Type and size without reading content (e.g. to refuse large blobs). */
  readObjectInfo(oid: Oid, options?: ReadOptions): Promise<GitObjectInfo | null>;
  /** Null when absent or not a commit. */
  readCommit(oid: Oid, options?: ReadOptions): Promise<GitCommit | null>;
  /**
   * {@link readCommit} of many commits at once (a chunk of a long range), in their order: the
   * same answers, with one promise for them all instead of one per layer and commit.
   */
  readCommits(oids: readonly Oid[], options?: ReadOptions): Promise<Array<GitCommit | null>>;
  /** Null when absent or not a tree. */
  readTree(oid: Oid, options?: ReadOptions): Promise<TreeEntry[] | null>;
  /** Null when absent or not a blob. */
  readBlob(oid: Oid, options?: ReadOptions): Promise<Buffer | null>;
  /**
   * Starts the process bulk reads go to, if it is not running (see {@link ReadOptions.bulk});
   * resolves once it has answered a first request. Never rejects.
   */
  startBulkReads(): Promise<void>;
  /** Null when absent or not an annotated tag. */
  readTag(oid: Oid): Promise<GitTag | null>;
  /** Follows annotated tags to a commit; null when absent or not ending at a commit. */
  peelToCommit(oid: Oid): Promise<Oid | null>;
  /** Looks `path` up under a commit or tree by reading trees; `''` is the root tree. */
  findEntry(commitOrTreeOid: Oid, path: string): Promise<TreeEntry | null>;
}

/** Resolving and listing refs. */
export interface GitRefReads {
  /** `HEAD` or a full `refs/…` name → target oid (symbolic and packed refs resolved). */
  resolveRef(name: string): Promise<Oid | null>;
  /** Target name of a symbolic ref, null when the ref is direct or absent. */
  readSymbolicRef(name: string): Promise<string | null>;
  /**
   * Refs under `prefix` (ending with `/`), sorted by name bytes. While nothing under the
   * prefix changes, repeated calls may answer the same (shared, frozen-by-contract) array.
   */
  listRefs(prefix: string): Promise<readonly RefEntry[]>;
}

/** Lists of commits: history pages, ranges, and the reading of long ones a chunk at a time. */
export interface GitCommitWalks {
  /** Commits newest first, like `git log`. */
  walkCommits(options: WalkCommitsOptions): Promise<GitCommit[]>;
  /** The ids of the commits {@link walkCommits} returns, without reading the commits. */
  listCommitOids(options: WalkCommitsOptions): Promise<OidList>;
  /**
   * Reads commits listed by {@link listCommitOids} a chunk at a time, each chunk when asked
   * for (a reader that stops early reads nothing more); the chunks share the long-walk slots
   * of {@link openCommitRange}.
   */
  readCommitsInChunks(oids: OidList, options?: Pick<ChunkedReadOptions, 'signal'>): AsyncIterable<readonly GitCommit[]>;
  /**
   * The history of `from` in `walkCommits` order up to (excluding) the first commit equal to
   * `stop`; all of it when `stop` never comes (the commit list of a range page).
   */
  walkCommitsUntil(range: { from: Oid; stop: Oid }): Promise<GitCommit[]>;
  /**
   * The same list as {@link walkCommitsUntil}, for a reader that sends it on as it goes: the
   * near part read, the ids of the rest of a long range (for {@link readCommitsInChunks}).
   */
  openCommitRange(range: { from: Oid; stop: Oid }): Promise<CommitRange>;
  /**
   * Counts `ids` against the bound of commit ids held by answers being written (see
   * `HeldCommitIds`), as {@link openCommitRange} does for a range's rest; for a listing from
   * {@link listCommitOids} that is sent on as it is read.
   * @returns the release: call it once the list is read or no longer wanted
   * @throws BusyError when holding it would pass the bound
   */
  holdCommitIds(ids: OidList): () => void;
}

/** What a history holds, taken as a whole: counts, authors, times, the last change of a path. */
export interface GitHistoryQueries {
  /** Number of commits reachable from `from`, itself included (`rev-list --count`). */
  countCommits(from: Oid): Promise<number>;
  /** Newest commit reachable from `from` that changed `path` (git rev-list -1 -- path); null if none or invalid path. */
  lastCommitTouching(options: { from: Oid; path: string }): Promise<Oid | null>;
  /**
   * Line attribution of a file at a commit, as `git blame --porcelain <commit> -- <path>` names
   * it (git's defaults), in maximal ranges in file order.
   * @throws BusyError past `timeoutMs`; TooLargeError past `maxOutputBytes` of git output
   */
  blame(request: BlameRequest): Promise<BlameRange[]>;
  /**
   * `lastCommitTouching` of every entry of one folder at once, from one walk of the last-commit
   * index (read first when it does not hold `from` yet), never one walk per entry.
   * @param options - start commit, the folder (`''` = root), its entry names, how long to wait
   * @returns each name's commit, null when none touched it, in the order of `names`
   * @throws BusyError past `timeoutMs` (the history goes on being read); TooLargeError when it cannot be held
   */
  lastCommitsInFolder(options: { from: Oid; folder: string; names: readonly string[]; timeoutMs: number }): Promise<Array<Oid | null>>;
  /**
   * Reads the history of `from` into the in-memory index behind `lastCommitTouching` (which
   * starts this in the background itself on a commit it has not seen); resolves when done.
   */
  indexHistory(from: Oid): Promise<void>;
  /**
   * Reads the last-commit index kept in the cache directory back into memory, without git (see
   * `commit-changes-file.ts`); the start-up pass does it so a first visitor after a restart
   * does not wait for it.
   * @returns whether it holds commits now
   */
  restoreHistoryIndex(): Promise<boolean>;
  /**
   * Distinct (author name, author email) pairs reachable from `from`, first seen first (a long
   * history with a commit-graph is walked as two halves side by side: the newer half's first);
   * with `exclude`, only those of commits not reachable from any of them.
   */
  listContributors(from: Oid, options?: { readonly exclude?: readonly Oid[] }): Promise<Contributor[]>;
  /** Committer times (seconds) of commits reachable from `from` with time > sinceExclusive, walk order. */
  commitTimes(from: Oid, sinceExclusive: number): Promise<number[]>;
  /**
   * Committer times (seconds) of the given commits, by id, in one read (nothing walked); ids
   * that are absent or not commits are left out.
   */
  commitTimesOf(oids: readonly Oid[]): Promise<Map<Oid, number>>;
}

/** How commits relate: common ancestors, ancestry, the refs that contain one. */
export interface GitGraphQueries {
  /** Best common ancestor, null when the histories are unrelated. */
  mergeBase(a: Oid, b: Oid): Promise<Oid | null>;
  /** True when `ancestor` is reachable from `descendant` (or equal). */
  isAncestor(ancestor: Oid, descendant: Oid): Promise<boolean>;
  /** Names of the refs under `prefixes` (each ending with `/`) whose tip contains `commit`, sorted by name bytes. */
  refsContaining(commit: Oid, prefixes: readonly string[]): Promise<string[]>;
  /**
   * Commits only `head` reaches and commits only `base` reaches
   * (`git rev-list --left-right --count base...head`, right and left).
   */
  countAheadBehind(base: Oid, head: Oid): Promise<{ ahead: number; behind: number }>;
}

/** Searching the files of a commit. */
export interface GitSearches {
  /** `git grep -F` over the text files of a commit, bounded in matches, line length and time (processes/git-grep.ts). */
  grep(options: GrepOptions): Promise<GrepResult>;
}

/** Differences between two commits or trees, as git writes them. */
export interface GitDiffs {
  /** Raw records + patch between two commits/trees, capped at maxBytes. */
  diffPatch(options: DiffPatchOptions): Promise<DiffPatch>;
  /** `diff-tree -r -z --numstat -M -C` records between two commits/trees, capped at maxBytes. */
  diffNumstat(options: DiffNumstatOptions): Promise<DiffPatch>;
}

/**
 * Read access to one git repository: the reads of each facet above, over one repository. All
 * methods are async; "not found" is `null` (or `[]`), invalid input (malformed oid or ref name)
 * throws an `InvalidInputError`, git failures throw `ProcessFailedError`, corrupt objects
 * `InvalidDataError`.
 */
export interface GitRepository extends GitObjectReads, GitRefReads, GitCommitWalks, GitHistoryQueries, GitGraphQueries, GitDiffs, GitSearches {
  readonly gitDir: string;
  /** Stops the repository's processes; later calls fail. */
  close(): Promise<void>;
}
