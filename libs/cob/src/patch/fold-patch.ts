/**
 * The patch reducer (docs/node-home.md §7.2; radicle `Patch::from_root` / `Patch::op`).
 */
import { RejectedError } from '@forge-httpd/identity';
import type { Change } from '../change.js';
import type { CobFolder } from '../dag/evaluate-changes.js';
import type { FoldEnv } from '../model/fold-env.js';
import type { IdentityDoc } from '../model/identity-doc.js';
import { authorizePatchAction } from './authorize-patch.js';
import { applyReviewComment, addReview, editReview, reactToReview, redactReview } from './fold-patch-review.js';
import { addRevision, applyRevisionComment, editRevision, reactToRevision, redactRevision } from './fold-patch-revision.js';
import { applyMerge, applyLifecycle } from './fold-patch-state.js';
import { type PatchAction, parsePatchAction } from './patch-action.js';
import type { PatchState } from './patch-state.js';

/**
 * Builds the patch fold for one evaluation.
 * @param env - repository facts (documents at resources, merge reachability)
 * @returns init/apply functions for {@link evaluateChanges}
 */
export function patchFolder(env: FoldEnv): CobFolder<PatchState> {
  return {
    init: (root) => initPatch(root, env),
    apply: (patch, change) => applyPatchChange(patch, change, env),
  };
}

function initPatch(root: Change, env: FoldEnv): PatchState {
  const doc = env.docAt(root.resource);
  const [first, second, ...rest] = root.actions.map(parsePatchAction);
  if (first?.type !== 'revision') throw new RejectedError('the first patch action must be a revision');
  if (second?.type !== 'edit') throw new RejectedError('the second patch action must be an edit');
  const patch: PatchState = {
    id: root.id,
    title: second.title,
    author: root.author,
    status: { status: 'open', conflicts: [] },
    target: second.target,
    labels: new Set(),
    merges: new Map(),
    revisions: new Map(),
    assignees: new Set(),
    timeline: [root.id],
    reviews: new Map(),
  };
  addRevision(patch, { action: first, change: root });
  // In the root change a denial invalidates the whole patch.
  for (const action of rest) authorizedApply({ patch, action, change: root, doc, env });
  return patch;
}

function applyPatchChange(patch: PatchState, change: Change, env: FoldEnv): void {
  // The op enters the timeline before anything can fail (no rollback, like the node).
  patch.timeline.push(change.id);
  const doc = env.docAt(change.resource);
  const actions = change.actions.map(parsePatchAction);
  for (const action of actions) authorizedApply({ patch, action, change, doc, env });
}

interface ActionContext {
  readonly patch: PatchState;
  readonly action: PatchAction;
  readonly change: Change;
  readonly doc: IdentityDoc;
  readonly env: FoldEnv;
}

function authorizedApply(context: ActionContext): void {
  const { patch, action, change, doc } = context;
  const outcome = authorizePatchAction(patch, { action, actor: change.author, doc });
  if (outcome === 'deny') throw new RejectedError(`${change.author} may not ${action.type}`);
  if (outcome === 'allow') applyPatchAction(context);
}

/** Applies one authorised patch action (a switch whose cases are small functions). */
function applyPatchAction({ patch, action, change, doc, env }: ActionContext): void {
  switch (action.type) {
    case 'edit':
      patch.title = action.title;
      patch.target = action.target;
      return;
    case 'lifecycle':
      return applyLifecycle(patch, action.state);
    case 'label':
      patch.labels = new Set(action.labels);
      return;
    case 'assign':
      patch.assignees = new Set(action.assignees);
      return;
    case 'merge':
      return applyMerge({ patch, action, change, doc, env });
    case 'revision':
      return addRevision(patch, { action, change });
    case 'revision.edit':
      return editRevision(patch, { action, change });
    case 'revision.react':
      return reactToRevision(patch, { action, change });
    case 'revision.redact':
      return redactRevision(patch, action);
    case 'revision.comment':
    case 'revision.comment.edit':
    case 'revision.comment.redact':
    case 'revision.comment.react':
      return applyRevisionComment(patch, { action, change });
    case 'review':
      return addReview(patch, { action, change });
    case 'review.edit':
      return editReview(patch, { action, change });
    case 'review.redact':
      return redactReview(patch, action);
    case 'review.react':
      return reactToReview(patch, { action, change });
    default:
      return applyReviewComment(patch, { action, change });
  }
}
