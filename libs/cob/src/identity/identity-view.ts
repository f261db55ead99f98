import type { Did, Nid } from '@forge-httpd/identity';
import type { Oid } from '@forge-httpd/storage';
import { type IdentityRevisionState, type IdentityState, currentRevision } from './identity-state.js';

/** One identity revision as presented. */
export interface IdentityRevisionView {
  readonly id: Oid;
  readonly title: string;
  readonly description: string;
  readonly author: Nid;
  readonly blob: Oid;
  readonly state: IdentityRevisionState;
  readonly delegates: readonly Did[];
  readonly threshold: number;
  readonly parent: Oid | null;
  readonly timestamp: number;
  /** Delegates that accepted / rejected. */
  readonly accepted: readonly Nid[];
  readonly rejected: readonly Nid[];
}

/** An evaluated identity COB. */
export interface Identity {
  readonly id: Oid;
  /** The commit of the accepted revision (what `refs/rad/id` should point to). */
  readonly current: Oid;
  readonly currentDocument: { readonly delegates: readonly Did[]; readonly threshold: number; readonly payload: Readonly<Record<string, unknown>> };
  /** Live revisions in timeline order. */
  readonly revisions: readonly IdentityRevisionView[];
}

/** Snapshots a folded identity. */
export function viewIdentity(state: IdentityState): Identity {
  const current = currentRevision(state);
  const revisions: IdentityRevisionView[] = [];
  for (const id of new Set(state.timeline)) {
    const r = state.revisions.get(id);
    if (!r) continue;
    const verdicts = [...r.verdicts.entries()];
    revisions.push({
      id: r.id,
      title: r.title,
      description: r.description,
      author: r.author,
      blob: r.blob,
      state: r.state,
      delegates: r.doc.delegates,
      threshold: r.doc.threshold,
      parent: r.parent,
      timestamp: r.timestamp,
      accepted: verdicts.filter(([, ok]) => ok).map(([nid]) => nid),
      rejected: verdicts.filter(([, ok]) => !ok).map(([nid]) => nid),
    });
  }
  return {
    id: state.root,
    current: current.id,
    currentDocument: { delegates: current.doc.delegates, threshold: current.doc.threshold, payload: current.doc.payload },
    revisions,
  };
}
