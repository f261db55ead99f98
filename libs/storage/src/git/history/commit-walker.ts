/**
 * The commit lists of one repository: history pages (a first page walked here, longer ones
 * listed by the commit-graph or `rev-list` and read), ranges, and long lists read a chunk at
 * a time.
 */
import { InvalidDataError } from '@forge-httpd/identity';
import type { GitCommit } from '../format/git-objects.js';
import type { GitCommitWalks, GitObjectReads, ReadOptions, WalkCommitsOptions } from '../git-repository.js';
import { historyInGraph } from '../graph/graph-history.js';
import type { RepositoryCommitGraph } from '../graph/repository-commit-graph.js';
import { OidList } from '../objects/oid-list.js';
import { checkOid, type Oid } from '../objects/oid.js';
import type { RepositoryContext } from '../repository-context.js';
import type { ChunkedReadOptions, CommitRange } from './commit-range.js';
import { filteredCommitOids, isFilteredWalk } from './filtered-walk.js';
import { checkWalkWindow, walkCommitOids } from './history.js';
import { type CommitSource, IN_MEMORY_WALK_LIMIT, openCommitRange, readInChunks, type WalkBounds, walkCommitsUntil, walkNear } from './walk-commits-until.js';
import type { WalkedCommits } from './walked-commits.js';
import type { GitTarget } from '../processes/git-processes.js';

const SEQUENTIAL: ReadOptions = { sequential: true };

/** What a {@link CommitWalker} keeps beyond the repository's own parts. */
export interface CommitWalkerOptions {
  /** The slots long walks share, and the bound long answers count their commit ids against. */
  readonly bounds: WalkBounds;
  /**
   * Commits read by first-page walks, keyed by repository and id (history/walked-commits.ts),
   * each held with its raw message in a buffer of its own.
   */
  readonly walkedCommits: WalkedCommits;
}

export class CommitWalker implements GitCommitWalks {
  private readonly gitDir: string;
  private readonly at: GitTarget;
  private readonly commitGraph: RepositoryCommitGraph;
  private readonly load: { isBusy(): boolean };
  private readonly bounds: WalkBounds;
  private readonly walkedCommits: WalkedCommits;
  /** What ranges read through: the repository's commit reads, and its id lists. */
  private readonly source: CommitSource;

  constructor(
    context: RepositoryContext,
    private readonly objects: Pick<GitObjectReads, 'readObjectInfo' | 'readCommit' | 'readCommits'>,
    options: CommitWalkerOptions,
  ) {
    this.gitDir = context.gitDir;
    this.at = context.at;
    this.commitGraph = context.commitGraph;
    this.load = context.load;
    this.bounds = options.bounds;
    this.walkedCommits = options.walkedCommits;
    this.source = {
      readCommit: (oid, readOptions) => objects.readCommit(oid, readOptions),
      readCommits: (oids, readOptions) => objects.readCommits(oids, readOptions),
      listCommitOids: (walk) => this.listCommitOids(walk),
    };
  }

  async walkCommits(options: WalkCommitsOptions): Promise<GitCommit[]> {
    if (isFilteredWalk(options)) return this.readListed(await filteredCommitOids(this.at, this.objects, options));
    const near = await this.walkFirstCommits(options);
    if (near !== null) return near;
    return this.readListed((await this.listCommitOids(options)).toArray());
  }

  /** The commits of listed ids, in their order. */
  private readListed(oids: readonly Oid[]): Promise<GitCommit[]> {
    // Requests are pipelined through the one cat-file process.
    return Promise.all(
      oids.map(async (oid) => {
        const commit = await this.objects.readCommit(oid);
        if (commit === null) throw new InvalidDataError('object', `commit ${oid} listed by rev-list is unreadable`);
        return commit;
      }),
    );
  }

  /**
   * A first page of history (no time filter, no exclusions, at most
   * {@link IN_MEMORY_WALK_LIMIT} commits from the start) walked here in rev-list's order
   * instead of by a `rev-list` process, whose start costs most of a first commit list; null
   * for anything else and for a start that is not a readable commit (git reports it). Also
   * when this thread is busy: handing such walks to `rev-list` then served fewer pages.
   */
  private async walkFirstCommits(options: WalkCommitsOptions): Promise<GitCommit[] | null> {
    const { from, skip = 0, maxCount } = options;
    if (options.since !== undefined || options.until !== undefined || (options.exclude?.length ?? 0) > 0) return null;
    if (maxCount === undefined || !Number.isSafeInteger(skip) || !Number.isSafeInteger(maxCount)) return null;
    if (skip < 0 || maxCount < 0 || skip + maxCount > IN_MEMORY_WALK_LIMIT) return null;
    if ((await this.objects.readObjectInfo(checkOid(from), SEQUENTIAL))?.type !== 'commit') return null;
    const { commits } = await walkNear({ readCommit: (oid) => this.readWalkedCommit(oid) }, { from }, skip + maxCount);
    return commits.slice(skip);
  }

  /** A step of a first-page walk: from the walked commits kept, else read (in process when it can). */
  private async readWalkedCommit(oid: Oid): Promise<GitCommit | null> {
    const key = `${this.gitDir}\0${oid}`;
    const held = this.walkedCommits.get(key);
    if (held !== undefined) return held;
    const commit = await this.objects.readCommit(oid, SEQUENTIAL);
    if (commit !== null) this.walkedCommits.set(key, withOwnMessage(commit));
    return commit;
  }

  async listCommitOids(options: WalkCommitsOptions): Promise<OidList> {
    if (isFilteredWalk(options)) return OidList.of(await filteredCommitOids(this.at, this.objects, options));
    return this.listCommitOidsInGraph(options) ?? walkCommitOids(this.at, options);
  }

  /**
   * The walk's ids from the commit-graph, in rev-list's order (graph-history.ts), when a graph
   * holds the start, the walk excludes nothing and this thread is not the bottleneck (a whole
   * history's ids take this thread a few milliseconds, which `rev-list` spends on another
   * core); else null.
   */
  private listCommitOidsInGraph(options: WalkCommitsOptions): OidList | null {
    if ((options.exclude?.length ?? 0) > 0 || this.load.isBusy()) return null;
    checkWalkWindow(options);
    return this.commitGraph.answer((graph) => historyInGraph(graph, checkOid(options.from), options));
  }

  readCommitsInChunks(oids: OidList, options: Pick<ChunkedReadOptions, 'signal'> = {}): AsyncIterable<readonly GitCommit[]> {
    return readInChunks(this.objects, oids, this.bounds.longWalks, { signal: options.signal });
  }

  walkCommitsUntil(range: { from: Oid; stop: Oid }): Promise<GitCommit[]> {
    return walkCommitsUntil(this.source, { from: checkOid(range.from), stop: checkOid(range.stop) }, IN_MEMORY_WALK_LIMIT, this.bounds);
  }

  openCommitRange(range: { from: Oid; stop: Oid }): Promise<CommitRange> {
    return openCommitRange(this.source, { from: checkOid(range.from), stop: checkOid(range.stop) }, IN_MEMORY_WALK_LIMIT, this.bounds);
  }

  holdCommitIds(ids: OidList): () => void {
    return this.bounds.heldCommitIds.hold(ids);
  }
}

/**
 * The commit with its raw message in a buffer of its own, for the walked commits kept: a read's
 * bytes are a view of a larger buffer (an inflate chunk, a shared pool slab), which a held view
 * keeps whole, so a cache that counts the messages would hold many times its bound.
 */
function withOwnMessage(commit: GitCommit): GitCommit {
  const own = Buffer.allocUnsafeSlow(commit.rawMessage.length);
  commit.rawMessage.copy(own);
  return { ...commit, rawMessage: own };
}
