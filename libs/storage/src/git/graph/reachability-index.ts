/**
 * Which of a few ref tips reach a commit, answered from memory: one `git rev-list --topo-order
 * --parents <tips>` per set of tips gives every reachable commit with its parents, children
 * before parents, so one pass hands each commit the bits of the tips above it. It replaces a
 * `git for-each-ref --contains` process per commit page (a walk from every tip down to the
 * commit, longer the longer the history). The index is keyed by the exact tips
 * (names and ids, as the stat-stamped ref listing gives them), so moved refs build a new one;
 * indexes of all repositories share one budget of commits, least recently used dropped first.
 * A missing index is built in the background while the caller asks git, so no request waits
 * for the walk.
 */
import type { CommitGraph } from './commit-graph-file.js';
import { refsContainingInGraph } from './graph-containment.js';
import { MAX_MASK_TIPS, reachabilityMasks } from './graph-reachability.js';
import type { BudgetedIndex, IndexBudget } from '../limits/index-budget.js';
import type { GitTarget } from '../processes/git-processes.js';
import { runGit } from '../processes/run-git.js';
import { isOid, type Oid } from '../objects/oid.js';
import { INDEX_SLICE_MS, ThreadSlices } from '../limits/thread-slices.js';

/** Commits held by every index together (~80 bytes each: about 20 MB). */
export const DEFAULT_REACHABILITY_BUDGET = 250_000;

interface Index {
  readonly key: string;
  /** commit → bit i set when tip i reaches it. */
  readonly masks: Map<string, number>;
}

/** The same from a commit-graph: masks by graph position (4 bytes per commit). */
interface GraphIndex {
  readonly key: string;
  readonly graph: CommitGraph;
  readonly masks: Uint32Array;
}

/** Budget units (commits of a listing-built index, ~80 bytes each) a graph index's masks weigh. */
const GRAPH_MASKS_PER_UNIT = 20;

/** Lines parsed between two looks at the clock. */
const SLICE_CHECK_LINES = 256;

/** One repository's reachability index (at most one set of tips at a time). */
export class ReachabilityIndex implements BudgetedIndex {
  private index: Index | null = null;
  private graphIndex: GraphIndex | null = null;
  private building: { key: string; promise: Promise<Index | null> } | null = null;
  /** Keys whose history did not fit the budget: not tried again while the tips stay the same. */
  private tooLarge: string | null = null;

  /**
   * @param at - repository, and the processes its `rev-list` runs under
   * @param budget - shared by the indexes of every repository (default: process-wide)
   * @param options - how long parsing holds the thread at a time (default {@link INDEX_SLICE_MS})
   */
  constructor(
    private readonly at: GitTarget,
    private readonly budget: IndexBudget,
    private readonly options: { readonly sliceMs?: number } = {},
  ) {}

  /**
   * The names of `refs` (already sorted as the answer must be) whose tip commit reaches
   * `commit`, or null when this index cannot answer (not built yet for these tips, too many
   * tips, history over the budget): the caller then asks git.
   * @param refs - name and the commit its tip peels to (null: not a commit, never contains)
   */
  async containing(commit: Oid, refs: ReadonlyArray<{ name: string; commit: Oid | null }>): Promise<string[] | null> {
    const tips = tipsOf(refs);
    if (tips.length === 0) return [];
    if (tips.length > MAX_MASK_TIPS) return null;
    const key = tips.join(' ');
    if (this.tooLarge === key) return null;
    const index = this.index?.key === key ? this.index : null;
    if (index === null) {
      // Built in the background: the request that finds no index for these tips asks git as
      // before, rather than wait for the whole walk.
      this.build(key, tips).catch(() => undefined);
      return null;
    }
    this.budget.use(this, index.masks.size);
    return namesInMask(refs, tips, index.masks.get(commit) ?? 0);
  }

  /**
   * The names of `refs` (sorted as the answer must be) whose tip reaches `commit`, from a
   * commit-graph that holds the commit and every tip; null when it does not (a commit newer
   * than the graph, a tip that is a tag): the caller then goes on as for {@link containing}.
   * The masks of the tips are computed on the first question (cheap next to a walk) and
   * kept while the tips and the graph stay the same; more tips than a mask holds, or a graph
   * without levels, are answered by a walk per question instead.
   */
  containingInGraph(commit: Oid, refs: ReadonlyArray<{ name: string; commit: Oid | null }>, graph: CommitGraph): string[] | null {
    const tips = tipsOf(refs);
    if (tips.length === 0) return [];
    const target = graph.position(commit);
    if (target < 0) return null;
    const key = tips.join(' ');
    let index = this.graphIndex !== null && this.graphIndex.key === key && this.graphIndex.graph === graph ? this.graphIndex : null;
    if (index === null) {
      const positions = tips.map((tip) => graph.position(tip));
      if (positions.some((position) => position < 0)) return null;
      const masks = reachabilityMasks(graph, positions);
      if (masks === null) return refsContainingInGraph(graph, commit, refs);
      // The listing-built index of older tips is of no more use: the graph answers.
      this.index = null;
      index = { key, graph, masks };
      this.graphIndex = index;
    }
    this.budget.use(this, Math.ceil(index.masks.length / GRAPH_MASKS_PER_UNIT));
    return namesInMask(refs, tips, index.masks[target] as number);
  }

  /**
   * Whether this index holds nothing and builds nothing: no question was asked yet (a first
   * read of the repository) or the index was dropped.
   */
  isEmpty(): boolean {
    return this.index === null && this.graphIndex === null && this.building === null && this.tooLarge === null;
  }

  /**
   * Starts building the index of `refs`' tips in the background (nothing when it is built,
   * being built, or cannot be built), so later questions find it.
   */
  prepare(refs: ReadonlyArray<{ commit: Oid | null }>): void {
    const tips = tipsOf(refs);
    if (tips.length === 0 || tips.length > MAX_MASK_TIPS) return;
    const key = tips.join(' ');
    if (this.tooLarge === key || this.index?.key === key) return;
    this.build(key, tips).catch(() => undefined);
  }

  /** Forgets the index (budget eviction, repository closed). */
  drop(): void {
    this.index = null;
    this.graphIndex = null;
    this.budget.release(this);
  }

  private build(key: string, tips: readonly Oid[]): Promise<Index | null> {
    if (this.building?.key === key) return this.building.promise;
    const promise = this.walk(key, tips).finally(() => {
      if (this.building?.promise === promise) this.building = null;
    });
    this.building = { key, promise };
    return promise;
  }

  private async walk(key: string, tips: readonly Oid[]): Promise<Index | null> {
    const { stdout } = await runGit({ ...this.at, args: ['rev-list', '--topo-order', '--parents', '--end-of-options', ...tips] });
    // ~82 bytes of output per single-parent commit: a cheap bound before parsing.
    if (stdout.length / 82 > this.budget.limit) {
      this.tooLarge = key;
      return null;
    }
    const masks = new Map<string, number>();
    tips.forEach((tip, bit) => masks.set(tip, (masks.get(tip) ?? 0) | (1 << bit)));
    const text = stdout.toString('latin1');
    // In slices: a long history's listing would hold the thread too long in one go.
    const slices = new ThreadSlices(this.options.sliceMs ?? INDEX_SLICE_MS);
    for (let start = 0, line = 0; start < text.length; line += 1) {
      if (line % SLICE_CHECK_LINES === 0 && slices.due()) await slices.turn();
      let end = text.indexOf('\n', start);
      if (end < 0) end = text.length;
      const commit = text.slice(start, start + 40);
      if (isOid(commit)) {
        const mask = masks.get(commit) ?? 0;
        // `--topo-order`: every child comes before its parents, so `mask` is complete here.
        for (let at = start + 41; at + 40 <= end; at += 41) {
          const parent = text.slice(at, at + 40);
          masks.set(parent, (masks.get(parent) ?? 0) | mask);
        }
      }
      start = end + 1;
    }
    if (masks.size > this.budget.limit) {
      this.tooLarge = key;
      return null;
    }
    const index = { key, masks };
    this.index = index;
    this.budget.use(this, masks.size);
    return index;
  }
}

/** The names of `refs` whose tip's bit is set in `mask` (bit i = `tips[i]`). */
function namesInMask(refs: ReadonlyArray<{ name: string; commit: Oid | null }>, tips: readonly Oid[], mask: number): string[] {
  return refs.filter((ref) => ref.commit !== null && (mask & (1 << tips.indexOf(ref.commit))) !== 0).map((ref) => ref.name);
}

/** The distinct tip commits of `refs`, in ref order (bit i of a mask = tip i). */
function tipsOf(refs: ReadonlyArray<{ commit: Oid | null }>): Oid[] {
  return [...new Set(refs.flatMap((ref) => (ref.commit === null ? [] : [ref.commit])))];
}
