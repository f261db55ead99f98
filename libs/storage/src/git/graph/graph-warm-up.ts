/**
 * The commit-graph code run once on a graph built in memory, so that its loops are compiled
 * before the first visitor's question. A repository's first commit page decodes its graph and
 * computes branch masks; right after start-up that code had never run, and on a 50,000-commit
 * history the masks took 7–11 ms in code not compiled yet against ~2 ms once it was. Run at
 * start-up (before the server says it is ready), it costs a few milliseconds once per process.
 */
import { CommitGraph, syntheticCommitId as syntheticId } from './commit-graph-file.js';
import { countReachableInGraph, isAncestorInGraph, refsContainingInGraph } from './graph-containment.js';
import { commitTimesInGraph } from './graph-history.js';
import { reachabilityMasks } from './graph-reachability.js';

/** Commits of the warm-up graph and how many times it is read: enough for the loops to be compiled. */
const WARM_UP_COMMITS = 8_192;
const WARM_UP_ROUNDS = 3;

/**
 * Runs the graph reader and the questions answered from a graph (branch masks, the
 * containment walk, ancestry, counts, commit times) on a synthetic graph.
 * @returns whether every answer was the one the synthetic history implies (a self-check:
 *   false means the code being warmed is wrong, not that warming failed)
 */
export function warmUpCommitGraphCode(commits: number = WARM_UP_COMMITS, rounds: number = WARM_UP_ROUNDS): boolean {
  let consistent = true;
  for (let round = 0; round < rounds; round++) {
    const graph = CommitGraph.synthetic(commits);
    if (graph === null) return false;
    const size = graph.size;
    const head = syntheticId(size - 1);
    const middle = syntheticId(size >> 1);
    const root = syntheticId(0);
    // Three tips: the head reaches everything, the middle commit half, the root only itself.
    const masks = reachabilityMasks(graph, [size - 1, size >> 1, 0]);
    consistent &&= masks !== null && masks[0] === 0b111 && masks[size - 1] === 0b001 && masks[size >> 1] === 0b011;
    const refs = [
      { name: 'refs/heads/head', commit: head },
      { name: 'refs/heads/middle', commit: middle },
    ];
    const containing = refsContainingInGraph(graph, syntheticId(size >> 2), refs);
    consistent &&= containing !== null && containing.join(' ') === 'refs/heads/head refs/heads/middle';
    consistent &&= isAncestorInGraph(graph, root, head) === true && isAncestorInGraph(graph, head, root) === false;
    consistent &&= countReachableInGraph(graph, head) === size;
    const times = commitTimesInGraph(graph, head);
    consistent &&= times !== null && times.length === size && (times[0] as number) > (times[size - 1] as number);
  }
  return consistent;
}
