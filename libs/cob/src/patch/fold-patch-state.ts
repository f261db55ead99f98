/**
 * Patch reducer cases that change the patch state: lifecycle and merges.
 */
import type { Change } from '../change.js';
import type { FoldEnv } from '../model/fold-env.js';
import { type IdentityDoc, projectDefaultBranch } from '../model/identity-doc.js';
import type { PatchAction, PatchLifecycle } from './patch-action.js';
import { lookupRevision } from './patch-lookup.js';
import type { PatchState } from './patch-state.js';

/**
 * Changes the lifecycle, but only from draft, archived or open without conflicts (so a merged
 * patch cannot be reopened this way).
 */
export function applyLifecycle(patch: PatchState, state: PatchLifecycle): void {
  const current = patch.status;
  const changeable = current.status === 'draft' || current.status === 'archived' || (current.status === 'open' && current.conflicts.length === 0);
  if (!changeable) return;
  patch.status = state === 'open' ? { status: 'open', conflicts: [] } : { status: state };
}

/**
 * Records a delegate's merge when the commit is on the merger's copy of the target branch (the
 * default branch unless an edit named another), then derives
 * the state from the merges that reach the document's threshold: exactly one → merged,
 * several → open with conflicts.
 */
export function applyMerge(args: { patch: PatchState; action: Extract<PatchAction, { type: 'merge' }>; change: Change; doc: IdentityDoc; env: FoldEnv }): void {
  const { patch, action, change, doc, env } = args;
  if (lookupRevision(patch, action.revision) === null) return;
  const branch = patch.target === 'delegates' ? `refs/heads/${projectDefaultBranch(doc, env.projectPayloadId)}` : patch.target.branch;
  // A merge whose commit is not (yet) on the merger's branch is skipped, not an error.
  if (!env.isOnBranch({ nid: change.author, branch, commit: action.commit })) return;
  patch.merges.set(change.author, { revision: action.revision, commit: action.commit, timestamp: change.timestamp });
  const counts = new Map<string, { revision: typeof action.revision; commit: typeof action.commit; count: number }>();
  for (const merge of patch.merges.values()) {
    const key = `${merge.revision} ${merge.commit}`;
    const entry = counts.get(key) ?? { revision: merge.revision, commit: merge.commit, count: 0 };
    entry.count += 1;
    counts.set(key, entry);
  }
  const quorum = [...counts.values()].filter((entry) => entry.count >= doc.threshold);
  const [only] = quorum;
  if (quorum.length === 1 && only !== undefined) {
    patch.status = { status: 'merged', revision: only.revision, commit: only.commit };
  } else if (quorum.length > 1) {
    // The node collects these from a HashMap; sort them so the output is deterministic.
    const conflicts = quorum.map((entry) => [entry.revision, entry.commit] as const).sort((a, b) => (a.join() < b.join() ? -1 : 1));
    patch.status = { status: 'open', conflicts };
  }
}
