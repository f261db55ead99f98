/**
 * Which of a few tips reach each commit of a {@link CommitGraph}: one pass over the graph in
 * descending topological level (every child before its parents) hands each commit the bits of
 * the tips above it. It needs no git process and no listing of the history: 50,000 commits in
 * ~2 ms into 4 bytes per commit, where the same index built from `git rev-list --topo-order
 * --parents` took a process, ~270 ms and ~80 bytes per commit.
 */
import type { CommitGraph } from './commit-graph-file.js';

/** Tips one mask can mark, here and in the index built from a listing: one bit each in 32 bits. */
export const MAX_MASK_TIPS = 32;

/**
 * Bit i of `masks[p]` is set when tip i reaches the commit at graph position p.
 * @param tips - graph positions of the tips (at most {@link MAX_MASK_TIPS})
 * @returns the masks; null when the graph has no levels to order by or contradicts itself
 */
export function reachabilityMasks(graph: CommitGraph, tips: readonly number[]): Uint32Array | null {
  if (tips.length > MAX_MASK_TIPS) return null;
  const size = graph.size;
  const masks = new Uint32Array(size);
  let highest = 0;
  for (const [bit, tip] of tips.entries()) {
    masks[tip] = ((masks[tip] as number) | (1 << bit)) >>> 0;
    highest = Math.max(highest, graph.level(tip));
  }
  // Counting sort of the commits at or below the highest tip by level (0: not computed).
  const starts = new Uint32Array(highest + 2);
  for (let position = 0; position < size; position++) {
    const level = graph.level(position);
    if (level === 0) return null;
    if (level <= highest) (starts[level + 1] as number)++;
  }
  for (let level = 1; level <= highest + 1; level++) starts[level] = (starts[level] as number) + (starts[level - 1] as number);
  const order = new Uint32Array(starts[highest + 1] as number);
  const next = starts.slice(0, highest + 1);
  for (let position = 0; position < size; position++) {
    const level = graph.level(position);
    if (level <= highest) order[(next[level] as number)++] = position;
  }
  const parents = graph.parentPositions;
  for (let at = order.length - 1; at >= 0; at--) {
    const position = order[at] as number;
    const mask = masks[position] as number;
    if (mask === 0) continue;
    const level = graph.level(position);
    for (let edge = graph.parentsStart(position), end = graph.parentsStart(position + 1); edge < end; edge++) {
      const parent = parents[edge] as number;
      // A parent is always one level lower at least: anything else is not a graph git wrote.
      if (graph.level(parent) >= level) return null;
      masks[parent] = ((masks[parent] as number) | mask) >>> 0;
    }
  }
  return masks;
}
