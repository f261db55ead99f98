/**
 * Opening a repository: its files, processes, caches and indexes ({@link RepositoryContext}),
 * and one reader per kind of read over them, joined into one {@link GitRepository}.
 */
import { CatFileProcess, DEFAULT_IDLE_MS } from './processes/cat-file-process.js';
import { DIFF_TREE_OPTIONS } from './history/diff-patch.js';
import { DiffTreeProcess } from './processes/diff-tree-process.js';
import { WITHOUT_MOVES } from './history/exact-moves.js';
import type { GitRepository } from './git-repository.js';
import { LastCommitIndex, type LastCommitFile } from './history/last-commit-index.js';
import { PackedRefsFile } from './objects/loose-files.js';
import { ObjectFiles } from './objects/object-files.js';
import { RefListingCache } from './refs/ref-listing-cache.js';
import type { IndexBudget } from './limits/index-budget.js';
import { ReachabilityIndex } from './graph/reachability-index.js';
import { RepositoryCommitGraph } from './graph/repository-commit-graph.js';
import type { HeldCommitIds } from './history/held-commit-ids.js';
import type { GitTarget } from './processes/git-processes.js';
import type { StorageRuntime } from './storage-runtime.js';
import type { RepositoryContext } from './repository-context.js';
import { ObjectReader } from './processes/object-reader.js';
import { listRefsUncached, RefReader } from './refs/ref-reader.js';
import { CommitWalker } from './history/commit-walker.js';
import { HistoryQueries } from './history/history-queries.js';
import { GraphQueries } from './graph/graph-queries.js';
import { DiffReader } from './history/diff-reader.js';
import { grepCommit } from './processes/git-grep.js';

// Still importable from here, where it was declared before the readers were split out.
export { BUSY_READS_FOR_A_PROCESS } from './processes/object-reader.js';

/** Tuning for {@link openGitRepository}. */
export interface OpenGitRepositoryOptions {
  /** The processes, limits, budgets and caches this repository shares with the others of the process. */
  readonly runtime: StorageRuntime;
  /** Stop the cat-file process after this long without requests (default 30 s). */
  readonly idleMs?: number;
  /** Receives one line per unexpected exit of the cat-file process (default: dropped). */
  readonly log?: (message: string) => void;
  /** The clock ref stamps are judged by (default `Date.now`; tests move it ahead instead of waiting). */
  readonly now?: () => number;
  /** The commit budget this repository's branch reachability index shares (default: the runtime's). */
  readonly reachability?: IndexBudget;
  /** The byte budget this repository's last-commit-per-path index shares (default: the runtime's). */
  readonly lastCommits?: IndexBudget;
  /** Where that index is kept across restarts (default: it is not). */
  readonly lastCommitFile?: LastCommitFile | null;
  /** Whether the event loop is too busy for reads in process (default: the runtime's). */
  readonly threadLoad?: { isBusy(): boolean };
  /** The bound this repository's long answers count their commit ids against (default: the runtime's). */
  readonly heldCommitIds?: HeldCommitIds;
  /**
   * Whole-history walks of commits whose longest line of history is at least this long are cut
   * in two halves git walks side by side (default {@link SPLIT_WALKS_FROM_LEVEL}).
   */
  readonly splitWalksFromLevel?: number;
}

/**
 * The shortest line of history whose whole walk is cut in two: below a few thousand commits
 * the walk takes git tens of milliseconds, and a second process start would eat the gain.
 */
const SPLIT_WALKS_FROM_LEVEL = 4096;

/**
 * Opens a repository for reading, from its files in process and through git where they do not
 * answer. Cheap: no process starts until the first read. Keep one instance per repository and
 * reuse it; call `close()` when done.
 * @param gitDir - the repository's git directory (bare repositories: the repository itself)
 * @param options - idle timeout of the cat-file process, where its crashes are logged, the settle clock
 * @returns the repository
 */
export function openGitRepository(gitDir: string, options: OpenGitRepositoryOptions): GitRepository {
  const context = openRepositoryContext(gitDir, options);
  const objects = new ObjectReader(context);
  const { history } = options.runtime;
  return joinReaders(context, {
    objects,
    refs: new RefReader(context),
    walks: new CommitWalker(context, objects, {
      bounds: { longWalks: history.longWalks, heldCommitIds: options.heldCommitIds ?? history.heldCommitIds },
      walkedCommits: history.walkedCommits,
    }),
    history: new HistoryQueries(context, options.splitWalksFromLevel ?? SPLIT_WALKS_FROM_LEVEL),
    graph: new GraphQueries(context, objects),
    diffs: new DiffReader(context),
  });
}

/** The parts of a repository its readers share; nothing starts until a read needs it. */
function openRepositoryContext(gitDir: string, options: OpenGitRepositoryOptions): RepositoryContext {
  const { runtime } = options;
  const processes = runtime.processes;
  const at: GitTarget = { gitDir, processes };
  const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  const reachability = options.reachability ?? runtime.budgets.reachability;
  const refFiles = new PackedRefsFile(gitDir, options.now);
  return {
    gitDir,
    at,
    catFile: new CatFileProcess(gitDir, { processes, idleMs, log: options.log }),
    diffTree: {
      whole: new DiffTreeProcess(gitDir, { processes, args: DIFF_TREE_OPTIONS.slice(1), idleMs }),
      withoutMoves: new DiffTreeProcess(gitDir, { processes, args: [...DIFF_TREE_OPTIONS.slice(1), WITHOUT_MOVES], idleMs }),
    },
    reachability: new ReachabilityIndex(at, reachability),
    commitGraph: new RepositoryCommitGraph(gitDir, reachability, processes.overlays),
    lastCommits: new LastCommitIndex(at, options.lastCommits ?? runtime.budgets.lastCommits, options.lastCommitFile ?? null),
    objectFiles: new ObjectFiles(gitDir, { reads: runtime.objects, idleMs }),
    refListings: new RefListingCache(gitDir, (prefix) => listRefsUncached(at, refFiles, prefix), options.now),
    refFiles,
    load: options.threadLoad ?? runtime.objects.threadLoad,
    closed: false,
  };
}

/** The readers of one repository, one per kind of read. */
interface RepositoryReaders {
  readonly objects: ObjectReader;
  readonly refs: RefReader;
  readonly walks: CommitWalker;
  readonly history: HistoryQueries;
  readonly graph: GraphQueries;
  readonly diffs: DiffReader;
}

/** The repository as one object: each member forwards to the reader of its kind. */
function joinReaders(context: RepositoryContext, { objects, refs, walks, history, graph, diffs }: RepositoryReaders): GitRepository {
  return {
    gitDir: context.gitDir,
    readObject: (oid, options) => objects.readObject(oid, options),
    readObjectInfo: (oid, options) => objects.readObjectInfo(oid, options),
    readCommit: (oid, options) => objects.readCommit(oid, options),
    readCommits: (oids, options) => objects.readCommits(oids, options),
    readTree: (oid, options) => objects.readTree(oid, options),
    readBlob: (oid, options) => objects.readBlob(oid, options),
    startBulkReads: () => objects.startBulkReads(),
    readTag: (oid) => objects.readTag(oid),
    peelToCommit: (oid) => objects.peelToCommit(oid),
    findEntry: (commitOrTreeOid, path) => objects.findEntry(commitOrTreeOid, path),
    resolveRef: (name) => refs.resolveRef(name),
    readSymbolicRef: (name) => refs.readSymbolicRef(name),
    listRefs: (prefix) => refs.listRefs(prefix),
    walkCommits: (options) => walks.walkCommits(options),
    listCommitOids: (options) => walks.listCommitOids(options),
    readCommitsInChunks: (oids, options) => walks.readCommitsInChunks(oids, options),
    walkCommitsUntil: (range) => walks.walkCommitsUntil(range),
    openCommitRange: (range) => walks.openCommitRange(range),
    holdCommitIds: (ids) => walks.holdCommitIds(ids),
    countCommits: (from) => history.countCommits(from),
    lastCommitTouching: (options) => history.lastCommitTouching(options),
    blame: (request) => history.blame(request),
    lastCommitsInFolder: (options) => history.lastCommitsInFolder(options),
    indexHistory: (from) => history.indexHistory(from),
    restoreHistoryIndex: () => history.restoreHistoryIndex(),
    listContributors: (from, options) => history.listContributors(from, options),
    commitTimes: (from, sinceExclusive) => history.commitTimes(from, sinceExclusive),
    commitTimesOf: (oids) => history.commitTimesOf(oids),
    mergeBase: (a, b) => graph.mergeBase(a, b),
    isAncestor: (ancestor, descendant) => graph.isAncestor(ancestor, descendant),
    refsContaining: (commit, prefixes) => graph.refsContaining(commit, prefixes),
    countAheadBehind: (base, head) => graph.countAheadBehind(base, head),
    grep: (options) => grepCommit(context.at, options),
    diffPatch: (options) => diffs.diffPatch(options),
    diffNumstat: (options) => diffs.diffNumstat(options),
    close: () => closeRepository(context),
  };
}

/** Stops the repository's processes and lets its indexes go; later reads fail. */
async function closeRepository(context: RepositoryContext): Promise<void> {
  context.closed = true;
  context.reachability.drop();
  context.commitGraph.drop();
  // A history read in the last seconds is written before it is let go.
  await context.lastCommits.flush().catch(() => undefined);
  context.lastCommits.drop();
  context.diffTree.whole.close();
  context.diffTree.withoutMoves.close();
  context.catFile.close();
  context.objectFiles.close();
}
