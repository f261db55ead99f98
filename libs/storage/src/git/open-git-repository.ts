import { BoundedCache } from '@forge-httpd/bounded-cache';
import { compareUtf8, InvalidDataError } from '@forge-httpd/identity';
import type { BatchAnswer } from './processes/batch-response-parser.js';
import { CatFileProcess, DEFAULT_IDLE_MS } from './processes/cat-file-process.js';
import { DIFF_TREE_OPTIONS, diffNumstat, diffPatch } from './history/diff-patch.js';
import { DiffTreeProcess } from './processes/diff-tree-process.js';
import { assembleExactMoves, type ExactMovesPlan, planExactMoves, WITHOUT_MOVES } from './history/exact-moves.js';
import { findEntry } from './format/find-entry.js';
import type { GitCommit, GitObject, GitObjectInfo, GitTag, TreeEntry } from './format/git-objects.js';
import type {
  Contributor,
  DiffNumstatOptions,
  DiffPatch,
  DiffPatchOptions,
  GitRepository,
  ReadOptions,
  RefEntry,
  WalkCommitsOptions,
} from './git-repository.js';
import {
  commitTimes,
  commitTimesOf,
  countCommits,
  distinctContributors,
  lastCommitTouching,
  listContributors,
  checkWalkWindow,
  walkCommitOids,
} from './history/history.js';
import { halfwayAncestorInGraph } from './graph/graph-halfway.js';
import type { OidList } from './objects/oid-list.js';
import { LastCommitIndex, type LastCommitFile } from './history/last-commit-index.js';
import { listRefFiles, listSortedRefFiles, PackedRefsFile } from './objects/loose-files.js';
import { ObjectFiles, threadLoad } from './objects/object-files.js';
import { isAncestor, mergeBase } from './graph/merge-base.js';
import { invalidOid, isOid, type Oid } from './objects/oid.js';
import { parseCommit } from './format/parse-commit.js';
import { parseTag } from './format/parse-tag.js';
import { parseTree } from './format/parse-tree.js';
import { checkRefName, invalidRefName, isValidRefPrefix } from './objects/ref-name.js';
import { type RefListing, RefListingCache } from './refs/ref-listing-cache.js';
import { ReadRate } from './limits/read-rate.js';
import type { IndexBudget } from './limits/index-budget.js';
import { processReachabilityBudget, ReachabilityIndex } from './graph/reachability-index.js';
import { countReachableInGraph, isAncestorInGraph } from './graph/graph-containment.js';
import { commitTimesInGraph, historyInGraph } from './graph/graph-history.js';
import { RepositoryCommitGraph } from './graph/repository-commit-graph.js';
import { listRefs, listRefsContaining, readSymbolicRef } from './refs/refs.js';
import { splitTreePath } from './format/tree-path.js';
import type { ChunkedReadOptions, CommitRange } from './history/commit-range.js';
import { type HeldCommitIds, processHeldCommitIds } from './history/held-commit-ids.js';
import { IN_MEMORY_WALK_LIMIT, openCommitRange, readInChunks, walkCommitsUntil, walkNear } from './history/walk-commits-until.js';

/** Tuning for {@link openGitRepository}. */
export interface OpenGitRepositoryOptions {
  /** Stop the cat-file process after this long without requests (default 30 s). */
  readonly idleMs?: number;
  /** Receives one line per unexpected exit of the cat-file process (default: dropped). */
  readonly log?: (message: string) => void;
  /** The clock ref stamps are judged by (default `Date.now`; tests move it ahead instead of waiting). */
  readonly now?: () => number;
  /** The commit budget this repository's branch reachability index shares (default: one per process). */
  readonly reachability?: IndexBudget;
  /** The byte budget this repository's last-commit-per-path index shares (default: one per process). */
  readonly lastCommits?: IndexBudget;
  /** Where that index is kept across restarts (default: it is not). */
  readonly lastCommitFile?: LastCommitFile | null;
  /** Whether the event loop is too busy for reads in process (default: the process-wide {@link threadLoad}). */
  readonly threadLoad?: { isBusy(): boolean };
  /** The bound this repository's long answers count their commit ids against (default: one per process). */
  readonly heldCommitIds?: HeldCommitIds;
  /**
   * Whole-history walks of commits whose longest line of history is at least this long are cut
   * in two halves git walks side by side (default {@link SPLIT_WALKS_FROM_LEVEL}).
   */
  readonly splitWalksFromLevel?: number;
}

const SEQUENTIAL: ReadOptions = { sequential: true };

/**
 * Reads of a repository in a second from which a busy thread hands them to a cat-file it
 * starts for them; below it they stay in process.
 */
export const BUSY_READS_FOR_A_PROCESS = 32;

/**
 * The shortest line of history whose whole walk is cut in two: below a few thousand commits
 * the walk takes git tens of milliseconds, and a second process start would eat the gain.
 */
export const SPLIT_WALKS_FROM_LEVEL = 4096;

/**
 * Commits read by first-page walks, process-wide, keyed by repository and id: paging through
 * a history walks the commits of the pages before it again (page n of 30 walks 30·(n+1)
 * commits), and the pages of neighbouring commits overlap. Only walks whose start the
 * repository itself holds (checked first) use it: the parents of a commit a repository holds
 * are there too (the node's storage is never shallow), and a commit's id fixes its content.
 */
const walkedCommits = new BoundedCache<string, GitCommit>({
  maxWeight: 8 * 1024 * 1024,
  weigh: (commit) => 512 + 3 * commit.rawMessage.length + commit.headers.reduce((sum, header) => sum + 2 * header.value.length, 0),
});

/**
 * The commit with its raw message in a buffer of its own, for {@link walkedCommits}: a read's
 * bytes are a view of a larger buffer (an inflate chunk, a shared pool slab), which a held view
 * keeps whole. Measured at full bench scale: 5,976 held commits kept 93 MB of 16 KiB chunks
 * while the cache counted its 8 MiB bound.
 */
function withOwnMessage(commit: GitCommit): GitCommit {
  const own = Buffer.allocUnsafeSlow(commit.rawMessage.length);
  commit.rawMessage.copy(own);
  return { ...commit, rawMessage: own };
}

/** Annotated tags nested deeper than this are treated as not peelable (cycles are impossible, chains are not). */
const MAX_TAG_DEPTH = 16;

/**
 * Opens a repository for reading through the git CLI. Cheap: no process starts until the
 * first read. Keep one instance per repository and reuse it; call `close()` when done.
 * @param gitDir - the repository's git directory (bare repositories: the repository itself)
 * @param options - idle timeout of the cat-file process, where its crashes are logged, the settle clock
 * @returns the repository
 */
export function openGitRepository(gitDir: string, options: OpenGitRepositoryOptions = {}): GitRepository {
  const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  const reachability = options.reachability ?? processReachabilityBudget();
  return new CliGitRepository(
    gitDir,
    new CatFileProcess(gitDir, { idleMs, log: options.log }),
    {
      whole: new DiffTreeProcess(gitDir, { args: DIFF_TREE_OPTIONS.slice(1), idleMs }),
      withoutMoves: new DiffTreeProcess(gitDir, { args: [...DIFF_TREE_OPTIONS.slice(1), WITHOUT_MOVES], idleMs }),
    },
    new ReachabilityIndex(gitDir, reachability),
    new RepositoryCommitGraph(gitDir, reachability),
    new LastCommitIndex(gitDir, options.lastCommits, options.lastCommitFile ?? null),
    new ObjectFiles(gitDir, { idleMs }),
    options.threadLoad ?? threadLoad,
    options.heldCommitIds ?? processHeldCommitIds,
    options.splitWalksFromLevel ?? SPLIT_WALKS_FROM_LEVEL,
    options.now,
  );
}

class CliGitRepository implements GitRepository {
  private readonly refListings: RefListingCache;
  private readonly refFiles: PackedRefsFile;
  /** Reads asked of this repository lately, while no cat-file runs for it ({@link throughGit}). */
  private readonly reads = new ReadRate();
  private closed = false;

  constructor(
    readonly gitDir: string,
    private readonly catFile: CatFileProcess,
    /** The long-lived diffs: the whole output, and one without renames and copies (exact-moves.ts). */
    private readonly diffTree: { readonly whole: DiffTreeProcess; readonly withoutMoves: DiffTreeProcess },
    private readonly reachability: ReachabilityIndex,
    private readonly commitGraph: RepositoryCommitGraph,
    private readonly lastCommits: LastCommitIndex,
    private readonly objectFiles: ObjectFiles,
    private readonly load: { isBusy(): boolean },
    private readonly heldIds: HeldCommitIds,
    private readonly splitWalksFromLevel: number,
    now?: () => number,
  ) {
    this.refListings = new RefListingCache(gitDir, (prefix) => this.listRefsNow(prefix), now);
    this.refFiles = new PackedRefsFile(gitDir, now);
  }

  async readObject(oid: Oid, options: ReadOptions = {}): Promise<GitObject | null> {
    // From the pack and loose files when they answer exactly and no process is better placed
    // (throughGit); git for the rest (module comment of object-files.ts).
    checkOid(oid);
    const stored = this.throughGit(options) ? undefined : this.objectFiles.read(oid);
    if (stored !== undefined) return stored;
    return objectOf(await this.catFile.request(oid, true));
  }

  /**
   * Where a read goes. In process it needs no process: a repository's first pages, and
   * repositories read now and then, start none. Through cat-file it costs a round trip but the
   * inflating happens on git's core, so once cat-file runs for this repository it answers, as
   * it does whenever this thread is the bottleneck ({@link ThreadLoad}) and for bulk reads,
   * which start it (thousands of reads at once: git inflates while this thread evaluates).
   * A walk's reads stay in process, busy or not and while cat-file runs too: each waits for
   * the one before, so a round trip per step would be the walk's whole cost. A busy thread
   * starts a cat-file only for a repository read a lot ({@link BUSY_READS_FOR_A_PROCESS} in a
   * second): one started for the few reads of a repository on a listing page cost ~20 ms of that
   * page, a crawl of one repository reaches the count at once (tools/bench/README.md,
   * "Compressed once").
   */
  private throughGit(options: ReadOptions): boolean {
    if (options.sequential === true) return false;
    if (options.bulk === true || this.catFile.isRunning()) return true;
    return this.reads.add() >= BUSY_READS_FOR_A_PROCESS && this.load.isBusy();
  }

  async startBulkReads(): Promise<void> {
    if (this.catFile.isRunning()) return;
    // Any name works: git starts, answers (found or missing), and stays for the reads to come.
    await this.catFile.request('HEAD', false).then(
      () => undefined,
      () => undefined,
    );
  }

  async readObjectInfo(oid: Oid, options: ReadOptions = {}): Promise<GitObjectInfo | null> {
    checkOid(oid);
    const stored = this.throughGit(options) ? undefined : this.objectFiles.readInfo(oid);
    if (stored !== undefined) return stored;
    const answer = await this.catFile.request(oid, false);
    return answer.found ? { type: answer.type, size: answer.size } : null;
  }

  async readCommit(oid: Oid, options?: ReadOptions): Promise<GitCommit | null> {
    return commitOf(oid, await this.readObject(oid, options));
  }

  async readCommits(oids: readonly Oid[], options: ReadOptions = {}): Promise<Array<GitCommit | null>> {
    // readObject's choice per commit, with one promise per commit instead of one per layer;
    // each is parsed as its answer arrives, while git writes the next ones. Every id is
    // checked before any is asked for: a throw midway would leave answers nobody awaits.
    for (const oid of oids) checkOid(oid);
    const commits = new Array<GitCommit | null>(oids.length).fill(null);
    const answered: Array<Promise<void>> = [];
    try {
      oids.forEach((oid, index) => {
        const stored = this.throughGit(options) ? undefined : this.objectFiles.read(oid);
        if (stored !== undefined) commits[index] = commitOf(oid, stored);
        else {
          answered.push(
            this.catFile.request(oid, true).then((answer) => {
              commits[index] = commitOf(oid, objectOf(answer));
            }),
          );
        }
      });
    } catch (error) {
      // A damaged object read here: the answers already asked for end before the error goes on.
      await Promise.allSettled(answered);
      throw error;
    }
    await Promise.all(answered);
    return commits;
  }

  async readTree(oid: Oid, options?: ReadOptions): Promise<TreeEntry[] | null> {
    const object = await this.readObject(oid, options);
    return object?.type === 'tree' ? parseTree(object.data) : null;
  }

  async readBlob(oid: Oid, options?: ReadOptions): Promise<Buffer | null> {
    const object = await this.readObject(oid, options);
    return object?.type === 'blob' ? object.data : null;
  }

  async readTag(oid: Oid): Promise<GitTag | null> {
    const object = await this.readObject(oid);
    return object?.type === 'tag' ? parseTag(oid, object.data) : null;
  }

  async peelToCommit(oid: Oid): Promise<Oid | null> {
    // Type first: a commit (nearly every ref) needs only its entry headers, not its inflated
    // content; only tags are read whole (a tracker's 2,001 branches peeled in process: 17–28 ms
    // against 25–31 when each was read whole).
    let current = oid;
    for (let depth = 0; depth <= MAX_TAG_DEPTH; depth += 1) {
      const info = await this.readObjectInfo(current);
      if (info?.type === 'commit') return current;
      const tag = info?.type === 'tag' ? await this.readTag(current) : null;
      if (tag === null) return null;
      current = tag.object;
    }
    return null;
  }

  async findEntry(commitOrTreeOid: Oid, path: string): Promise<TreeEntry | null> {
    return findEntry(this, { start: checkOid(commitOrTreeOid), path });
  }

  async resolveRef(name: string): Promise<Oid | null> {
    // A plain loose or packed ref whose object the files hold is answered here; cat-file
    // resolves the rest (symbolic refs, absent refs and objects) and re-reads them every time.
    // The object's entry header says it is there; inflating it would say nothing more.
    const target = this.refFiles.resolve(checkRefName(name));
    if (typeof target === 'string' && this.objectFiles.readInfo(target) !== undefined) return target;
    const answer = await this.catFile.request(name, false);
    return answer.found ? answer.oid : null;
  }

  readSymbolicRef(name: string): Promise<string | null> {
    return readSymbolicRef(this.gitDir, name);
  }

  /**
   * The refs under `prefix` as `git for-each-ref` lists them, read from the ref files when
   * they tell exactly (loose and packed refs with valid ASCII names, symbolic ones pointing
   * at a plain ref under the prefix; like git, a ref whose object is missing is listed), else
   * by git. A tracker's first page after a restart listed its 26,000 COB refs through git:
   * ~40 ms for the process and 25 ms to parse its output, where the `packed-refs` the
   * identity check had just read held them all (tools/bench/README.md, "COB refs listed from
   * the files").
   */
  private async listRefsNow(prefix: string): Promise<RefListing> {
    const listed = listSortedRefFiles(this.gitDir, prefix, this.refFiles);
    return listed !== undefined ? { entries: listed, selfContained: true } : listRefs(this.gitDir, prefix);
  }

  async listRefs(prefix: string): Promise<readonly RefEntry[]> {
    // Validated before the cache turns the prefix into a directory to stat.
    if (!isValidRefPrefix(prefix)) throw invalidRefName('prefix');
    return this.refListings.get(prefix);
  }

  async walkCommits(options: WalkCommitsOptions): Promise<GitCommit[]> {
    const near = await this.walkFirstCommits(options);
    if (near !== null) return near;
    const oids = await this.listCommitOids(options);
    // Requests are pipelined through the one cat-file process.
    return Promise.all(
      oids.toArray().map(async (oid) => {
        const commit = await this.readCommit(oid);
        if (commit === null) throw new InvalidDataError('object', `commit ${oid} listed by rev-list is unreadable`);
        return commit;
      }),
    );
  }

  /**
   * A first page of history (no time filter, no exclusions, at most
   * {@link IN_MEMORY_WALK_LIMIT} commits from the start) walked here in rev-list's order
   * instead of by a `rev-list` process, whose start cost most of a first commit list; null
   * for anything else and for a start that is not a readable commit (git reports it). Also
   * when this thread is busy: spread-out history pages at concurrency 4 on the 50,000-commit
   * bench history went from 520 to 899 pages/s against walks handed to `rev-list` while busy
   * (tools/bench/README.md, "Misses under load").
   */
  private async walkFirstCommits(options: WalkCommitsOptions): Promise<GitCommit[] | null> {
    const { from, skip = 0, maxCount } = options;
    if (options.since !== undefined || options.until !== undefined || (options.exclude?.length ?? 0) > 0) return null;
    if (maxCount === undefined || !Number.isSafeInteger(skip) || !Number.isSafeInteger(maxCount)) return null;
    if (skip < 0 || maxCount < 0 || skip + maxCount > IN_MEMORY_WALK_LIMIT) return null;
    if ((await this.readObjectInfo(checkOid(from), SEQUENTIAL))?.type !== 'commit') return null;
    const { commits } = await walkNear({ readCommit: (oid) => this.readWalkedCommit(oid) }, { from }, skip + maxCount);
    return commits.slice(skip);
  }

  /** A step of a first-page walk: from {@link walkedCommits}, else read (in process when it can). */
  private async readWalkedCommit(oid: Oid): Promise<GitCommit | null> {
    const key = `${this.gitDir}\0${oid}`;
    const held = walkedCommits.get(key);
    if (held !== undefined) return held;
    const commit = await this.readCommit(oid, SEQUENTIAL);
    if (commit !== null) walkedCommits.set(key, withOwnMessage(commit));
    return commit;
  }

  async listCommitOids(options: WalkCommitsOptions): Promise<OidList> {
    return this.listCommitOidsInGraph(options) ?? walkCommitOids(this.gitDir, options);
  }

  /**
   * The walk's ids from the commit-graph, in rev-list's order (graph-history.ts), when a graph
   * holds the start, the walk excludes nothing and this thread is not the bottleneck (a whole
   * 50,000-commit history is ~4 ms of it, which `rev-list` spends on another core); else null.
   */
  private listCommitOidsInGraph(options: WalkCommitsOptions): OidList | null {
    if ((options.exclude?.length ?? 0) > 0 || this.load.isBusy()) return null;
    checkWalkWindow(options);
    return this.commitGraph.answer((graph) => historyInGraph(graph, checkOid(options.from), options));
  }

  readCommitsInChunks(oids: OidList, options: Pick<ChunkedReadOptions, 'signal'> = {}): AsyncIterable<readonly GitCommit[]> {
    return readInChunks(this, oids, { signal: options.signal });
  }

  walkCommitsUntil(range: { from: Oid; stop: Oid }): Promise<GitCommit[]> {
    return walkCommitsUntil(this, { from: checkOid(range.from), stop: checkOid(range.stop) }, IN_MEMORY_WALK_LIMIT, this.heldIds);
  }

  openCommitRange(range: { from: Oid; stop: Oid }): Promise<CommitRange> {
    return openCommitRange(this, { from: checkOid(range.from), stop: checkOid(range.stop) }, IN_MEMORY_WALK_LIMIT, this.heldIds);
  }

  holdCommitIds(ids: OidList): () => void {
    return this.heldIds.hold(ids);
  }

  async countCommits(from: Oid): Promise<number> {
    checkOid(from);
    return this.commitGraph.answer((graph) => countReachableInGraph(graph, from)) ?? countCommits(this.gitDir, from);
  }

  async lastCommitTouching(options: { from: Oid; path: string }): Promise<Oid | null> {
    const segments = splitTreePath(options.path);
    if (segments === null || segments.length === 0) return lastCommitTouching(this.gitDir, options);
    // From memory once the history of `from` is indexed (in the background); git until then.
    const answer = this.lastCommits.lastCommitTouching(checkOid(options.from), segments.join('/'));
    if (answer !== undefined) return answer;
    try {
      return await lastCommitTouching(this.gitDir, options);
    } finally {
      // The index reads the history once this answer is in: started with the question, its
      // processes and their output shared the answer's cores and event loop (on heartwood's
      // history a first question took 12–21 ms at the median instead of 6–7 ms).
      setImmediate(() => {
        if (!this.closed) this.lastCommits.prepare(options.from).catch(() => undefined);
      });
    }
  }

  indexHistory(from: Oid): Promise<void> {
    return this.lastCommits.prepare(checkOid(from));
  }

  restoreHistoryIndex(): Promise<boolean> {
    return this.lastCommits.restoreKept();
  }

  async listContributors(from: Oid, options: { readonly exclude?: readonly Oid[] } = {}): Promise<Contributor[]> {
    const exclude = options.exclude ?? [];
    checkOid(from);
    // Every commit's author is read from its object: git's time grows with the history, so a
    // long one is cut in two walks that run on both cores (graph-halfway.ts).
    const halfway = exclude.length === 0 ? this.commitGraph.answer((graph) => halfwayAncestorInGraph(graph, from, this.splitWalksFromLevel)) : null;
    if (halfway === null) return listContributors(this.gitDir, from, exclude);
    const halves = await Promise.all([listContributors(this.gitDir, from, [halfway]), listContributors(this.gitDir, halfway)]);
    return distinctContributors(halves.flat());
  }

  async commitTimes(from: Oid, sinceExclusive: number): Promise<number[]> {
    checkOid(from);
    const times = this.commitGraph.answer((graph) => commitTimesInGraph(graph, from));
    return times === null ? commitTimes(this.gitDir, { from, sinceExclusive }) : times.filter((time) => time > sinceExclusive);
  }

  commitTimesOf(oids: readonly Oid[]): Promise<Map<Oid, number>> {
    return commitTimesOf(this.gitDir, oids);
  }

  mergeBase(a: Oid, b: Oid): Promise<Oid | null> {
    return mergeBase(this.gitDir, [a, b]);
  }

  async isAncestor(ancestor: Oid, descendant: Oid): Promise<boolean> {
    checkOid(ancestor);
    checkOid(descendant);
    // Collaborative objects ask this for every merge they record: the commit-graph answers
    // without a process when it holds both commits.
    return this.commitGraph.answer((graph) => isAncestorInGraph(graph, ancestor, descendant)) ?? isAncestor(this.gitDir, { ancestor, descendant });
  }

  async refsContaining(commit: Oid, prefixes: readonly string[]): Promise<string[]> {
    checkOid(commit);
    for (const prefix of prefixes) if (!isValidRefPrefix(prefix)) throw invalidRefName('prefix');
    // The ref files and the commit-graph answer in process when they can: no process, no
    // listing of the history, on a first read as later.
    const fromGraph = this.containingFromFiles(commit, prefixes);
    if (fromGraph !== null) return fromGraph;
    if (this.reachability.isEmpty()) {
      // A first read of this repository: git answers alone, and the ref listings and the index
      // walk start once the answer is in. Every spawn blocks the event loop for a time that
      // grows with the server's resident size, so the first page waits for one process, not
      // three, and shares no core with the walk.
      const names = await listRefsContaining(this.gitDir, commit, prefixes);
      setImmediate(() => {
        if (!this.closed)
          void this.refTips(prefixes).then(
            (refs) => this.reachability.prepare(refs),
            () => undefined,
          );
      });
      return names;
    }
    // The stat-stamped listings and the in-memory index answer without a process; git
    // (`for-each-ref --contains`) only when the index cannot (many tips, a huge history).
    const refs = await this.refTips(prefixes);
    return (await this.reachability.containing(commit, refs)) ?? listRefsContaining(this.gitDir, commit, prefixes);
  }

  /**
   * {@link refsContaining} from the ref files and the commit-graph, or null when they cannot
   * tell (no graph, a commit or tip outside it, a ref git must read).
   */
  private containingFromFiles(commit: Oid, prefixes: readonly string[]): string[] | null {
    return this.commitGraph.answer((graph) => {
      const listed = listRefFiles(this.gitDir, prefixes, this.refFiles);
      if (listed === undefined) return null;
      const refs = listed.sort((a, b) => compareUtf8(a.name, b.name)).map((ref) => ({ name: ref.name, commit: ref.oid }));
      return this.reachability.containingInGraph(commit, refs, graph);
    });
  }

  /** The refs under `prefixes` in name order, each with the commit its tip stands for. */
  private async refTips(prefixes: readonly string[]): Promise<Array<{ name: string; commit: Oid | null }>> {
    const byName = new Map<string, Oid>();
    for (const listing of await Promise.all(prefixes.map((prefix) => this.refListings.get(prefix)))) {
      for (const ref of listing) byName.set(ref.name, ref.oid);
    }
    const names = [...byName.keys()].sort(compareUtf8);
    const tips = new Map<Oid, Promise<Oid | null>>();
    for (const oid of byName.values()) if (!tips.has(oid)) tips.set(oid, this.peelToCommit(oid));
    return Promise.all(names.map(async (name) => ({ name, commit: await (tips.get(byName.get(name) as Oid) as Promise<Oid | null>) })));
  }

  async diffPatch(options: DiffPatchOptions): Promise<DiffPatch> {
    // Commit against commit: the long-lived diff-tree answers (null: anything unusual, such
    // as a root commit's empty-tree side, an empty diff or a cut one, goes to a spawned git).
    if (options.from !== null && Number.isSafeInteger(options.maxBytes)) {
      const range = { from: options.from, to: options.to };
      const moves: { plan: ExactMovesPlan | null } = { plan: null };
      const onRawRecords = (records: Buffer): boolean => (moves.plan = planExactMoves(records)) !== null;
      const patch = await this.diffTree.whole.diff(range, options.maxBytes, { ...options, onRawRecords });
      if (patch !== null) return { patch, truncated: false };
      // Many files moved unchanged: git's whole answer was abandoned for one without them.
      const assembled = moves.plan === null ? null : await this.diffWithoutMoves(range, options.maxBytes, moves.plan);
      if (assembled !== null) return { patch: assembled, truncated: false };
    }
    return diffPatch(this.gitDir, options);
  }

  /** git's whole output for a diff of many exact moves (exact-moves.ts); null: git is asked as for anything unusual. */
  private async diffWithoutMoves(range: { from: Oid; to: Oid }, maxBytes: number, plan: ExactMovesPlan): Promise<Buffer | null> {
    // Moves alone: git would write nothing, and the plan holds everything.
    const filtered = plan.keptRecords.length === 0 ? Buffer.alloc(0) : await this.diffTree.withoutMoves.diff(range, maxBytes);
    const assembled = filtered === null ? null : assembleExactMoves(plan, filtered);
    return assembled !== null && assembled.length <= maxBytes ? assembled : null;
  }

  diffNumstat(options: DiffNumstatOptions): Promise<DiffPatch> {
    return diffNumstat(this.gitDir, options);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.reachability.drop();
    this.commitGraph.drop();
    // A history read in the last seconds is written before it is let go.
    await this.lastCommits.flush().catch(() => undefined);
    this.lastCommits.drop();
    this.diffTree.whole.close();
    this.diffTree.withoutMoves.close();
    this.catFile.close();
    this.objectFiles.close();
  }
}

/** The object of a cat-file `contents` answer; null when git has none. */
function objectOf(answer: BatchAnswer): GitObject | null {
  return answer.found && answer.data !== undefined ? { type: answer.type, data: answer.data } : null;
}

/** The commit `object` holds; null when there is none or it is another kind. */
function commitOf(oid: Oid, object: GitObject | null): GitCommit | null {
  return object?.type === 'commit' ? parseCommit(oid, object.data) : null;
}

function checkOid(oid: Oid): Oid {
  if (!isOid(oid)) throw invalidOid();
  return oid;
}
