import type { Nid } from '@forge-httpd/identity';
import type { Oid } from '@forge-httpd/storage';
import type { IdentityDoc } from '../model/identity-doc.js';

/** Identity revision state (radicle `identity::State`). */
export type IdentityRevisionState = 'active' | 'accepted' | 'rejected' | 'stale';

/** A proposed or accepted identity document. */
export interface IdentityRevision {
  readonly id: Oid;
  title: string;
  description: string;
  readonly author: Nid;
  readonly blob: Oid;
  readonly doc: IdentityDoc;
  state: IdentityRevisionState;
  /** Delegate → accepted (true) or rejected (false). */
  readonly verdicts: Map<Nid, boolean>;
  readonly parent: Oid | null;
  readonly timestamp: number;
}

/** The folded identity COB. */
export interface IdentityState {
  readonly root: Oid;
  current: Oid;
  /** Delegate DID → the revision it currently votes for. */
  readonly heads: Map<string, Oid>;
  readonly revisions: Map<Oid, IdentityRevision | null>;
  readonly timeline: Oid[];
}

/** The current (accepted) revision. */
export function currentRevision(state: IdentityState): IdentityRevision {
  return state.revisions.get(state.current) as IdentityRevision;
}
