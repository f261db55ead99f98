import { compareUtf8 } from '@forge-httpd/identity';
import type { Did, Nid } from '@forge-httpd/identity';
import type { Oid } from '@forge-httpd/storage';
import { type CommentView, viewThread } from '../model/comment-view.js';
import { compareLocations, compareNids } from '../model/compare.js';
import { type Edit, groupReactions, type ReactionGroup } from '../model/thread.js';
import type { CodeLocation, Embed } from '../model/values.js';
import type { MergeTarget, Verdict } from './patch-action.js';
import { liveRevisions, type PatchState, type PatchStatus, type Review, type Revision, rootRevision } from './patch-state.js';

/** A review as presented (labels are kept but the API does not show them). */
export interface ReviewView {
  readonly id: Oid;
  readonly author: Nid;
  readonly verdict: Verdict | null;
  /** The latest summary edit's text (`""` when the review has none). */
  readonly summary: string;
  /** Every summary edit, the review's own first. */
  readonly summaryEdits: readonly Edit[];
  readonly comments: readonly CommentView<CodeLocation>[];
  readonly reactions: readonly ReactionGroup[];
  readonly labels: readonly string[];
  readonly timestamp: number;
}

/** Reactions of one emoji at one optional location. */
export interface RevisionReaction {
  readonly location: CodeLocation | null;
  readonly emoji: string;
  readonly authors: readonly Nid[];
}

/** A revision as presented. */
export interface RevisionView {
  readonly id: Oid;
  readonly author: Nid;
  readonly description: string;
  readonly edits: readonly Edit[];
  readonly embeds: readonly Embed[];
  readonly reactions: readonly RevisionReaction[];
  readonly base: Oid;
  readonly oid: Oid;
  /** Names in the author's signed refs pointing at `oid`. */
  readonly refs: readonly string[];
  readonly discussion: readonly CommentView<CodeLocation>[];
  readonly timestamp: number;
  /** Ordered by reviewer key. */
  readonly reviews: readonly ReviewView[];
  readonly resolves: readonly (readonly [Oid, Oid])[];
}

/** An evaluated patch, ready to be mapped to the wire format. */
export interface Patch {
  readonly id: Oid;
  readonly author: Nid;
  readonly title: string;
  readonly state: PatchStatus;
  readonly target: MergeTarget;
  readonly labels: readonly string[];
  /** Ordered by merger key. */
  readonly merges: readonly { readonly author: Nid; readonly revision: Oid; readonly commit: Oid; readonly timestamp: number }[];
  readonly assignees: readonly Did[];
  /** Live revisions in timeline order; the first is the patch id. */
  readonly revisions: readonly RevisionView[];
  /** Creation time: the root revision's, seconds. */
  readonly timestamp: number;
}

/** Finds the signed ref names of a revision author that point at a commit. */
export type RevisionRefsResolver = (author: Nid, oid: Oid) => readonly string[];

/**
 * Snapshots a folded patch into an immutable view.
 * @param state - the folded state
 * @param refsOf - resolves revision refs (empty when the author has no remote)
 */
export function viewPatch(state: PatchState, refsOf: RevisionRefsResolver): Patch {
  return {
    id: state.id,
    author: state.author,
    title: state.title,
    state: state.status,
    target: state.target,
    labels: [...state.labels].sort(compareUtf8),
    merges: [...state.merges.entries()].sort(([a], [b]) => compareNids(a, b)).map(([author, merge]) => ({ author, ...merge })),
    assignees: [...state.assignees].sort((a, b) => compareNids(a.slice(8), b.slice(8))),
    revisions: liveRevisions(state).map((revision) => viewRevision(revision, refsOf)),
    timestamp: rootRevision(state)?.timestamp ?? 0,
  };
}

function viewRevision(revision: Revision, refsOf: RevisionRefsResolver): RevisionView {
  const last = revision.description[revision.description.length - 1] as Edit;
  return {
    id: revision.id,
    author: revision.author,
    description: last.body,
    edits: [...revision.description],
    embeds: last.embeds,
    reactions: viewRevisionReactions(revision),
    base: revision.base,
    oid: revision.oid,
    refs: refsOf(revision.author, revision.oid),
    discussion: viewThread(revision.discussion),
    timestamp: revision.timestamp,
    reviews: [...revision.reviews.entries()].sort(([a], [b]) => compareNids(a, b)).map(([, review]) => viewReview(review)),
    resolves: revision.resolves,
  };
}

function viewRevisionReactions(revision: Revision): RevisionReaction[] {
  return [...revision.reactions.values()]
    .sort((a, b) => compareLocations(a.location, b.location))
    .flatMap(({ location, reactions }) => groupReactions(reactions.values()).map((group) => ({ location, ...group })));
}

function viewReview(review: Review): ReviewView {
  return {
    id: review.id,
    author: review.author,
    verdict: review.verdict,
    summary: review.summary[review.summary.length - 1]?.body ?? '',
    summaryEdits: [...review.summary],
    comments: viewThread(review.comments),
    reactions: groupReactions(review.reactions.values()),
    labels: review.labels,
    timestamp: review.timestamp,
  };
}
