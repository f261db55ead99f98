import type { Oid } from '@forge-httpd/storage';
import type { Change } from '../change.js';
import { CobApplyError } from '../errors.js';
import { ChangeGraph } from './change-graph.js';
import { orderChanges } from './order-changes.js';

/** What a COB type provides to the generic evaluation loop. */
export interface CobFolder<S> {
  /** Builds the state from the root change; throwing makes the whole object invalid. */
  init(root: Change): S;
  /**
   * Applies one change to the state (mutating it); throwing prunes the change and its
   * descendants, without undoing actions of the change that were already applied.
   */
  apply(state: S, change: Change, context: ApplyContext): void;
}

/** Extra knowledge about the graph some folds need (identity uses concurrency). */
export interface ApplyContext {
  /** Whether another change in the graph is neither an ancestor nor a descendant of this one. */
  hasConcurrent(): boolean;
}

/** The result of evaluating one object. */
export interface Evaluation<S> {
  readonly state: S;
  /** Change ids applied successfully, root first, in application order. */
  readonly applied: readonly Oid[];
  /** Tips of the graph after pruning, ascending: the parents of the next change. */
  readonly tips: readonly Oid[];
}

/**
 * Evaluates an object from its loaded changes (storage-format §6.5): the root must be present
 * with a valid signature and initialise the state; the other changes apply in radicle's order;
 * a change with a bad signature or an apply error ({@link CobApplyError}) is pruned with its
 * descendants.
 * @param args.rootId - the object id
 * @param args.changes - every change loaded from the object's tips (root included)
 * @param args.folder - the type's init/apply functions
 * @returns the evaluation, or null when the root is missing, unsigned or rejected
 */
export function evaluateChanges<S>(args: {
  rootId: Oid;
  changes: Iterable<Change>;
  folder: CobFolder<S>;
}): Evaluation<S> | null {
  const graph = new ChangeGraph(args.changes);
  const root = graph.get(args.rootId);
  if (root === undefined || !root.signatureValid) return null;
  let state: S;
  try {
    state = args.folder.init(root);
  } catch (error) {
    if (error instanceof CobApplyError) return null;
    throw error;
  }
  const applied: Oid[] = [root.id];
  for (const id of orderChanges(graph, root.id)) {
    const change = graph.get(id);
    if (change === undefined) continue;
    if (change.signatureValid && tryApply({ folder: args.folder, state, change, graph })) applied.push(id);
    else graph.remove(id);
  }
  return { state, applied, tips: graph.tips() };
}

function tryApply<S>(step: { folder: CobFolder<S>; state: S; change: Change; graph: ChangeGraph<Change> }): boolean {
  const { folder, state, change, graph } = step;
  const context: ApplyContext = { hasConcurrent: () => hasConcurrent(graph, change.id) };
  try {
    folder.apply(state, change, context);
    return true;
  } catch (error) {
    // Only rejections prune; anything else is a bug and must surface.
    if (error instanceof CobApplyError) return false;
    throw error;
  }
}

function hasConcurrent(graph: ChangeGraph<Change>, id: Oid): boolean {
  const ancestors = graph.ancestorsOf(id);
  const descendants = graph.descendantsOf(id);
  for (const key of graph.keys()) {
    if (key !== id && !ancestors.has(key) && !descendants.has(key)) return true;
  }
  return false;
}
