/**
 * A commit's history walked in a {@link CommitGraph}, in the order `git rev-list <commit>`
 * gives it: newest commit time first, commits of equal time in the order they were met (a
 * commit is met when its child is shown, parents in their order). No process and no commit is
 * read, so `/activity` and a page deep in `/commits` no longer wait for `rev-list` to walk a
 * long history.
 */
import type { CommitGraph } from './commit-graph-file.js';
import { OidList } from '../objects/oid-list.js';
import type { Oid } from '../objects/oid.js';

/** Bytes of a raw commit id (SHA-1). */
const HASH_BYTES = 20;

/**
 * The committer times of the commits `from` reaches, itself included, in `rev-list` order.
 * @returns the times in seconds; null when the graph does not hold `from`
 */
export function commitTimesInGraph(graph: CommitGraph, from: Oid): number[] | null {
  const start = graph.position(from);
  if (start < 0) return null;
  const times: number[] = [];
  walkInRevListOrder(graph, start, (position) => {
    times.push(graph.time(position));
    return true;
  });
  return times;
}

/** Which part of a history {@link historyInGraph} lists (as `rev-list` options). */
export interface HistoryWindow {
  /** Matching commits dropped first (`--skip`). */
  readonly skip?: number;
  /** Matching commits listed at most (`--max-count`); all when absent. */
  readonly maxCount?: number;
  /** Only commits with a committer time >= this (seconds). */
  readonly since?: number;
  /** Only commits with a committer time < this (seconds). */
  readonly until?: number;
}

/**
 * The ids `git rev-list --skip --max-count <from>` lists, with the time bounds applied to
 * every commit of the history (as `walkCommitOids` filters `rev-list --timestamp`).
 * @returns the ids in `rev-list` order; null when the graph does not hold `from`
 */
export function historyInGraph(graph: CommitGraph, from: Oid, window: HistoryWindow): OidList | null {
  const start = graph.position(from);
  if (start < 0) return null;
  const { skip = 0, maxCount = Number.POSITIVE_INFINITY, since, until } = window;
  if (maxCount <= 0) return OidList.EMPTY;
  const listed: number[] = [];
  let toSkip = skip;
  walkInRevListOrder(graph, start, (position) => {
    const time = graph.time(position);
    if ((since !== undefined && time < since) || (until !== undefined && time >= until)) return true;
    if (toSkip > 0) toSkip -= 1;
    else listed.push(position);
    return listed.length < maxCount;
  });
  const raw = Buffer.allocUnsafeSlow(listed.length * HASH_BYTES);
  listed.forEach((position, at) => graph.copyId(position, raw, at * HASH_BYTES));
  return OidList.fromRaw(raw);
}

/**
 * Visits the history of `start` in `rev-list` order until `visit` answers false.
 * @param visit - told each commit's position; false stops the walk
 */
function walkInRevListOrder(graph: CommitGraph, start: number, visit: (position: number) => boolean): void {
  const seen = new Uint8Array(graph.size);
  const queue = new DateQueue(graph);
  const parents = graph.parentPositions;
  seen[start] = 1;
  queue.push(start);
  for (let position = queue.pop(); position >= 0; position = queue.pop()) {
    if (!visit(position)) return;
    for (let edge = graph.parentsStart(position), end = graph.parentsStart(position + 1); edge < end; edge++) {
      const parent = parents[edge] as number;
      if (seen[parent] === 1) continue;
      seen[parent] = 1;
      queue.push(parent);
    }
  }
}

/** Commits by time, newest first; of equal times, the one pushed first (git's insertion by date). */
class DateQueue {
  private readonly positions: number[] = [];
  private readonly order: number[] = [];
  private pushed = 0;

  constructor(private readonly graph: CommitGraph) {}

  push(position: number): void {
    this.positions.push(position);
    this.order.push(this.pushed++);
    let at = this.positions.length - 1;
    while (at > 0) {
      const up = (at - 1) >> 1;
      if (!this.before(at, up)) break;
      this.swap(at, up);
      at = up;
    }
  }

  /** The next commit, or -1 when none is left. */
  pop(): number {
    const count = this.positions.length;
    if (count === 0) return -1;
    const top = this.positions[0] as number;
    this.swap(0, count - 1);
    this.positions.pop();
    this.order.pop();
    for (let at = 0; ;) {
      const [left, right] = [2 * at + 1, 2 * at + 2];
      let first = at;
      if (left < this.positions.length && this.before(left, first)) first = left;
      if (right < this.positions.length && this.before(right, first)) first = right;
      if (first === at) break;
      this.swap(at, first);
      at = first;
    }
    return top;
  }

  private before(a: number, b: number): boolean {
    const [timeA, timeB] = [this.graph.time(this.positions[a] as number), this.graph.time(this.positions[b] as number)];
    return timeA !== timeB ? timeA > timeB : (this.order[a] as number) < (this.order[b] as number);
  }

  private swap(a: number, b: number): void {
    [this.positions[a], this.positions[b]] = [this.positions[b] as number, this.positions[a] as number];
    [this.order[a], this.order[b]] = [this.order[b] as number, this.order[a] as number];
  }
}
