import type { Did, Nid } from '@forge-httpd/identity';
import type { Oid } from '@forge-httpd/storage';
import type { Edit, Thread } from '../model/thread.js';
import type { CodeLocation } from '../model/values.js';
import type { MergeTarget, Verdict } from './patch-action.js';

/** Patch state (docs/node-home.md §7.2 "State values"). */
export type PatchStatus =
  | { readonly status: 'draft' }
  | { readonly status: 'open'; readonly conflicts: readonly (readonly [Oid, Oid])[] }
  | { readonly status: 'archived' }
  | { readonly status: 'merged'; readonly revision: Oid; readonly commit: Oid };

/** A delegate's merge of a revision. */
export interface Merge {
  readonly revision: Oid;
  readonly commit: Oid;
  readonly timestamp: number;
}

/** A review of a revision; at most one per (revision, reviewer). */
export interface Review {
  readonly id: Oid;
  readonly author: Nid;
  verdict: Verdict | null;
  /** Summary edits, never empty; the first is the review's own (`""` when it had none). */
  readonly summary: Edit[];
  readonly comments: Thread<CodeLocation>;
  labels: readonly string[];
  readonly timestamp: number;
  /** Set of (author, emoji) reactions on the review, keyed `author emoji`. */
  readonly reactions: Map<string, { readonly author: Nid; readonly emoji: string }>;
}

/** Reactions on a revision at one (optional) code location. */
export interface LocatedReactions {
  readonly location: CodeLocation | null;
  readonly reactions: Map<string, { readonly author: Nid; readonly emoji: string }>;
}

/** A revision of a patch; its id is the id of the change that created it. */
export interface Revision {
  readonly id: Oid;
  readonly author: Nid;
  /** Description edits, never empty; the first is the original description. */
  readonly description: Edit[];
  readonly base: Oid;
  readonly oid: Oid;
  readonly discussion: Thread<CodeLocation>;
  readonly reviews: Map<Nid, Review>;
  readonly timestamp: number;
  readonly resolves: readonly (readonly [Oid, Oid])[];
  /** Keyed by the canonical text of the location ('' for none). */
  readonly reactions: Map<string, LocatedReactions>;
}

/** The folded state of a patch, mutated while changes apply. */
export interface PatchState {
  readonly id: Oid;
  title: string;
  readonly author: Nid;
  status: PatchStatus;
  target: MergeTarget;
  labels: Set<string>;
  readonly merges: Map<Nid, Merge>;
  /** Null when redacted. */
  readonly revisions: Map<Oid, Revision | null>;
  assignees: Set<Did>;
  /** Every op id in application order. */
  readonly timeline: Oid[];
  /** Review id → (revision, reviewer), null when redacted. */
  readonly reviews: Map<Oid, { readonly revision: Oid; readonly reviewer: Nid } | null>;
}

/** Live revisions in timeline order. */
export function liveRevisions(patch: PatchState): Revision[] {
  const result: Revision[] = [];
  for (const id of patch.timeline) {
    const revision = patch.revisions.get(id);
    if (revision) result.push(revision);
  }
  return result;
}

/** The first live revision by the patch author (radicle `Patch::root`). */
export function rootRevision(patch: PatchState): Revision | undefined {
  return liveRevisions(patch).find((revision) => revision.author === patch.author);
}
