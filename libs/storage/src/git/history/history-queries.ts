/**
 * What one repository's histories hold, taken as a whole: commit counts and times from the
 * commit-graph when it holds them, the last commit touching a path from the in-memory
 * last-commit index once it has read the history, authors from git; git answers the rest.
 */
import { BusyError, InvalidInputError } from '@forge-httpd/identity';
import type { Contributor, GitHistoryQueries } from '../git-repository.js';
import { countReachableInGraph } from '../graph/graph-containment.js';
import { halfwayAncestorInGraph } from '../graph/graph-halfway.js';
import { commitTimesInGraph } from '../graph/graph-history.js';
import type { RepositoryCommitGraph } from '../graph/repository-commit-graph.js';
import { checkOid, type Oid } from '../objects/oid.js';
import { splitTreePath } from '../format/tree-path.js';
import type { RepositoryContext } from '../repository-context.js';
import { commitTimes, commitTimesOf, countCommits, distinctContributors, lastCommitTouching, listContributors } from './history.js';
import type { LastCommitIndex } from './last-commit-index.js';
import { blameFile, type BlameRange, type BlameRequest } from './blame.js';
import type { GitTarget } from '../processes/git-processes.js';

export class HistoryQueries implements GitHistoryQueries {
  private readonly at: GitTarget;
  private readonly commitGraph: RepositoryCommitGraph;
  private readonly lastCommits: LastCommitIndex;

  /**
   * @param context - the repository's parts
   * @param splitWalksFromLevel - the shortest line of history whose whole walk is cut in two
   */
  constructor(
    private readonly context: RepositoryContext,
    private readonly splitWalksFromLevel: number,
  ) {
    this.at = context.at;
    this.commitGraph = context.commitGraph;
    this.lastCommits = context.lastCommits;
  }

  async countCommits(from: Oid): Promise<number> {
    checkOid(from);
    return this.commitGraph.answer((graph) => countReachableInGraph(graph, from)) ?? countCommits(this.at, from);
  }

  async lastCommitTouching(options: { from: Oid; path: string }): Promise<Oid | null> {
    const segments = splitTreePath(options.path);
    if (segments === null || segments.length === 0) return lastCommitTouching(this.at, options);
    // From memory once the history of `from` is indexed (in the background); git until then.
    const answer = this.lastCommits.lastCommitTouching(checkOid(options.from), segments.join('/'));
    if (answer !== undefined) return answer;
    try {
      return await lastCommitTouching(this.at, options);
    } finally {
      // The index reads the history once this answer is in: started with the question, its
      // processes and their output would share the answer's cores and event loop and slow it.
      setImmediate(() => {
        if (!this.context.closed) this.lastCommits.prepare(options.from).catch(() => undefined);
      });
    }
  }

  async lastCommitsInFolder(options: { from: Oid; folder: string; names: readonly string[]; timeoutMs: number }): Promise<Array<Oid | null>> {
    const segments = splitTreePath(options.folder);
    if (segments === null) throw new InvalidInputError('Invalid path: expected a folder inside the tree');
    let timer: NodeJS.Timeout | undefined;
    // The index read goes on past the bound: a later request finds it held.
    const bound = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new BusyError('history index still being read')), options.timeoutMs);
    });
    try {
      return await Promise.race([this.lastCommits.lastCommitsUnder(checkOid(options.from), segments.join('/'), options.names), bound]);
    } finally {
      clearTimeout(timer);
    }
  }

  blame(request: BlameRequest): Promise<BlameRange[]> {
    return blameFile(this.at, request);
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
    if (halfway === null) return listContributors(this.at, from, exclude);
    const halves = await Promise.all([listContributors(this.at, from, [halfway]), listContributors(this.at, halfway)]);
    return distinctContributors(halves.flat());
  }

  async commitTimes(from: Oid, sinceExclusive: number): Promise<number[]> {
    checkOid(from);
    const times = this.commitGraph.answer((graph) => commitTimesInGraph(graph, from));
    return times === null ? commitTimes(this.at, { from, sinceExclusive }) : times.filter((time) => time > sinceExclusive);
  }

  commitTimesOf(oids: readonly Oid[]): Promise<Map<Oid, number>> {
    return commitTimesOf(this.at, oids);
  }
}
