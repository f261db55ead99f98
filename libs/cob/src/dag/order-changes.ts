import type { Oid } from '@forge-httpd/storage';
import { type ChangeGraph, compareOids, type DagEntry } from './change-graph.js';

/**
 * Orders the changes of an object for evaluation exactly like radicle-dag `prune_by` with
 * the chronological ordering (docs/node-home.md §6.5 step 4): a reverse post-order DFS where the
 * children of every node are visited in reverse (time, oid) order, while the root's own
 * children are visited in ascending oid order, so their subtrees apply largest oid first.
 * Iterative, so long histories cannot overflow the stack.
 * @param graph - the loaded change graph
 * @param rootId - the object id (root change)
 * @returns the non-root change ids reachable from the root, in application order
 */
export function orderChanges<T extends DagEntry>(graph: ChangeGraph<T>, rootId: Oid): Oid[] {
  const visited = new Set<Oid>();
  // Every finished node is pushed to the FRONT of the order in radicle; collecting them in
  // finish order and reversing once gives the same sequence.
  const finished: Oid[] = [];
  for (const child of graph.childrenOf(rootId)) visit({ graph, start: child, visited, finished });
  return finished.reverse();
}

interface Frame {
  readonly id: Oid;
  readonly children: Oid[];
  index: number;
}

function visit<T extends DagEntry>(walk: { graph: ChangeGraph<T>; start: Oid; visited: Set<Oid>; finished: Oid[] }): void {
  const { graph, start, visited, finished } = walk;
  if (visited.has(start)) return;
  visited.add(start);
  const stack: Frame[] = [{ id: start, children: sortedChildren(graph, start), index: 0 }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    const child = frame.children[frame.index++];
    if (child === undefined) {
      stack.pop();
      finished.push(frame.id);
    } else if (!visited.has(child)) {
      visited.add(child);
      stack.push({ id: child, children: sortedChildren(graph, child), index: 0 });
    }
  }
}

/** Children sorted by (timestamp, oid) ascending, then reversed: the order radicle visits them. */
function sortedChildren<T extends DagEntry>(graph: ChangeGraph<T>, id: Oid): Oid[] {
  const children = graph.childrenOf(id).map((key) => graph.get(key) as T);
  children.sort((a, b) => a.timestamp - b.timestamp || compareOids(a.id, b.id));
  return children.map((entry) => entry.id).reverse();
}
