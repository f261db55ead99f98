import { RejectedError } from '@forge-httpd/identity';
import type { Oid } from '@forge-httpd/storage';
import type { Change } from '../change.js';
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

/** A change the evaluation dropped, with everything that depends on it. */
export interface ChangeRejection {
  /** The rejected change (the object id when the root itself was rejected). */
  readonly change: Oid;
  /** Whether the root was rejected, making the whole object invalid. */
  readonly root: boolean;
  /** Why, in words (for logs only: it may quote stored data). */
  readonly reason: string;
  /** The action type when the reason is a type this reader does not know. */
  readonly unknownAction: string | null;
  /** Changes dropped: the rejected one and its descendants (1 for a root). */
  readonly dropped: number;
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
 * Evaluates an object from its loaded changes (docs/node-home.md §6.5): the root must be present
 * with a valid signature and initialise the state; the other changes apply in radicle's order;
 * a change with a bad signature or an apply error ({@link RejectedError}) is pruned with its
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
  /** Told of every rejected change (the caller decides what to log and count). */
  onReject?: (rejection: ChangeRejection) => void;
}): Evaluation<S> | null {
  const report = args.onReject ?? (() => undefined);
  const graph = new ChangeGraph(args.changes);
  const root = graph.get(args.rootId);
  if (root === undefined) return null;
  if (!root.signatureValid) {
    report({ change: root.id, root: true, reason: 'invalid signature', unknownAction: null, dropped: 1 });
    return null;
  }
  let state: S;
  try {
    state = args.folder.init(root);
  } catch (error) {
    if (!(error instanceof RejectedError)) throw error;
    report({ change: root.id, root: true, ...describe(error), dropped: 1 });
    return null;
  }
  const applied: Oid[] = [root.id];
  for (const id of orderChanges(graph, root.id)) {
    const change = graph.get(id);
    if (change === undefined) continue;
    const rejection = change.signatureValid ? tryApply({ folder: args.folder, state, change, graph }) : { reason: 'invalid signature', unknownAction: null };
    if (rejection === null) applied.push(id);
    else report({ change: id, root: false, ...rejection, dropped: graph.remove(id) });
  }
  return { state, applied, tips: graph.tips() };
}

type Rejection = Pick<ChangeRejection, 'reason' | 'unknownAction'>;

function describe(error: RejectedError): Rejection {
  return { reason: error.message, unknownAction: error.unknownAction };
}

/** Applies one change; returns null, or why the change was rejected. */
function tryApply<S>(step: { folder: CobFolder<S>; state: S; change: Change; graph: ChangeGraph<Change> }): Rejection | null {
  const { folder, state, change, graph } = step;
  const context: ApplyContext = { hasConcurrent: () => hasConcurrent(graph, change.id) };
  try {
    folder.apply(state, change, context);
    return null;
  } catch (error) {
    // Only rejections prune; anything else is a bug and must surface.
    if (error instanceof RejectedError) return describe(error);
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
