/**
 * A repository's commit-graph held for in-process history questions (graph-reachability.ts,
 * graph-containment.ts, graph-history.ts), read again when its files change and dropped under
 * the shared index budget like the other per-repository indexes (~36 bytes per commit held:
 * ids, parents, levels, times).
 */
import path from 'node:path';
import { CommitGraph, GRAPH_BYTES_PER_COMMIT } from './commit-graph-file.js';
import type { BudgetedIndex, IndexBudget } from '../limits/index-budget.js';
import type { OverlayObjectDirectories } from '../objects/overlay-object-directories.js';
import { statPart, statQuiet } from '../objects/stat-stamp.js';

/** What one unit of the reachability budget stands for: a commit of a listing-built index. */
const BYTES_PER_BUDGET_UNIT = 80;

/** One repository's commit-graph, as git would use it now. */
export class RepositoryCommitGraph implements BudgetedIndex {
  private graph: CommitGraph | null = null;
  private stamp: string | null = null;

  /**
   * @param gitDir - the repository
   * @param budget - the budget of commits held, shared with the other indexes
   * @param overlays - where the runtime keeps commit-graphs of ours
   */
  constructor(
    private readonly gitDir: string,
    private readonly budget: IndexBudget,
    private readonly overlays: OverlayObjectDirectories,
  ) {}

  /** The graph, or null when the repository has none git would use (a few `stat` calls when unchanged). */
  current(): CommitGraph | null {
    const overlay = this.overlays.objectDirectory(this.gitDir);
    // git ignores commit-graphs of shallow repositories and of those with grafts.
    const [shallow, grafts] = [path.join(this.gitDir, 'shallow'), path.join(this.gitDir, 'info', 'grafts')].map(statQuiet);
    const stamp = `${overlay ?? ''}|${statPart(shallow)}|${statPart(grafts)}|${CommitGraph.stampOf(this.gitDir, overlay)}`;
    if (stamp !== this.stamp) {
      // A graph heavier than the whole budget is not read at all (git answers): the budget
      // could not drop it, since it would never hold it.
      const maxCommits = Math.floor((this.budget.limit * BYTES_PER_BUDGET_UNIT) / GRAPH_BYTES_PER_COMMIT);
      this.graph = shallow !== undefined || grafts !== undefined ? null : CommitGraph.read(this.gitDir, overlay, { maxCommits });
      this.stamp = stamp;
    }
    const graph = this.graph;
    if (graph !== null) this.budget.use(this, Math.ceil(graph.bytes / BYTES_PER_BUDGET_UNIT));
    return graph;
  }

  /**
   * `question` answered from the graph, or null when there is no graph or it cannot answer
   * (the caller then asks git).
   */
  answer<T>(question: (graph: CommitGraph) => T | null): T | null {
    const graph = this.current();
    return graph === null ? null : question(graph);
  }

  /** Forgets the graph (budget eviction, repository closed). */
  drop(): void {
    this.graph = null;
    this.stamp = null;
    this.budget.release(this);
  }
}
