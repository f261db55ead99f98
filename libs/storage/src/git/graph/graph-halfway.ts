/**
 * A commit about halfway down a history, found in a {@link CommitGraph}: where a walk of the
 * whole history can be cut in two walks that git runs side by side (`<from> ^<halfway>` and
 * `<halfway>`), which together list every commit `from` reaches exactly once, in about half
 * the time of one walk on a machine with two cores or more.
 */
import type { CommitGraph } from './commit-graph-file.js';
import type { Oid } from '../objects/oid.js';

/**
 * The commit at half of `from`'s topological level on its longest line of history (from each
 * commit, the parent of the highest level: the level drops by one a step). On a straight
 * history it reaches half of the commits; on one with merges, half of the longest line, which
 * keeps both halves big where a first-parent line may turn into a short side history (each
 * half stays correct either way, only less even).
 * @param graph - the repository's commit-graph
 * @param from - the commit whose history is to be cut
 * @param minLevel - histories whose longest line is shorter are not cut (a second process
 *   would cost more than it saves); at least 2
 * @returns the halfway commit; null when the graph does not hold `from`, its level is below
 *   `minLevel`, or the graph's writer left levels out (level 0)
 */
export function halfwayAncestorInGraph(graph: CommitGraph, from: Oid, minLevel: number): Oid | null {
  let position = graph.position(from);
  if (position < 0) return null;
  const level = graph.level(position);
  if (level < Math.max(2, minLevel)) return null;
  const target = Math.floor(level / 2);
  const parents = graph.parentPositions;
  while (graph.level(position) > target) {
    let highest = -1;
    for (let edge = graph.parentsStart(position), end = graph.parentsStart(position + 1); edge < end; edge++) {
      const parent = parents[edge] as number;
      if (highest < 0 || graph.level(parent) > graph.level(highest)) highest = parent;
    }
    // A root above the target: levels a writer got wrong (a root's level is 1).
    if (highest < 0) return null;
    position = highest;
  }
  return graph.id(position);
}
