/**
 * Patch reducer cases that act on reviews and their comment threads (radicle `Patch::action`).
 */
import type { Change } from '../change.js';
import { CobApplyError } from '../errors.js';
import { addComment, editComment, newThread, reactToComment, redactComment, resolveComment } from '../model/thread.js';
import type { PatchAction } from './patch-action.js';
import { lookupReview } from './patch-lookup.js';
import type { PatchState } from './patch-state.js';

type Of<T extends PatchAction['type']> = Extract<PatchAction, { type: T }>;

/** Adds a review unless the author already reviewed that revision (later ones are ignored). */
export function addReview(patch: PatchState, { action, change }: { action: Of<'review'>; change: Change }): void {
  // An unknown or redacted revision makes the review a no-op, not an error.
  const revision = patch.revisions.get(action.revision);
  if (!revision || revision.reviews.has(change.author)) return;
  revision.reviews.set(change.author, {
    id: change.id,
    author: change.author,
    verdict: action.verdict,
    summary: action.summary,
    comments: newThread(),
    labels: action.labels,
    timestamp: change.timestamp,
  });
  patch.reviews.set(change.id, { revision: action.revision, reviewer: change.author });
}

/** Replaces a review's verdict, summary and labels; both empty is an error. */
export function editReview(patch: PatchState, action: Of<'review.edit'>): void {
  if (action.summary === null && action.verdict === null) throw new CobApplyError('empty review');
  const found = lookupReview(patch, action.review);
  if (found === null) return;
  found.review.verdict = action.verdict;
  found.review.summary = action.summary;
  found.review.labels = action.labels;
}

/** Redacts a review. */
export function redactReview(patch: PatchState, action: Of<'review.redact'>): void {
  const locator = patch.reviews.get(action.review);
  if (locator === undefined) throw new CobApplyError(`review ${action.review} missing`);
  if (locator === null) return;
  const revision = patch.revisions.get(locator.revision);
  if (revision === undefined) throw new CobApplyError(`revision ${locator.revision} missing`);
  if (revision === null) return;
  revision.reviews.delete(locator.reviewer);
  patch.reviews.set(action.review, null);
}

/** Applies a review-comment action; ignored when the review or its revision was redacted. */
export function applyReviewComment(
  patch: PatchState,
  op: { action: Of<'review.comment' | 'review.comment.edit' | 'review.comment.redact' | 'review.comment.react' | 'review.comment.resolve' | 'review.comment.unresolve'>; change: Change },
): void {
  const { action, change } = op;
  const found = lookupReview(patch, action.review);
  if (found === null) return;
  const thread = found.review.comments;
  const { id, author, timestamp } = change;
  switch (action.type) {
    case 'review.comment':
      return addComment(thread, { id, author, timestamp, body: action.body, replyTo: action.replyTo, location: action.location, embeds: action.embeds });
    case 'review.comment.edit':
      return editComment(thread, { id, comment: action.comment, author, timestamp, body: action.body, embeds: action.embeds });
    case 'review.comment.redact':
      return redactComment(thread, { id, comment: action.comment });
    case 'review.comment.react':
      return reactToComment(thread, { id, author, comment: action.comment, emoji: action.reaction, active: action.active });
    case 'review.comment.resolve':
    case 'review.comment.unresolve':
      return resolveComment(thread, { id, comment: action.comment, resolved: action.type === 'review.comment.resolve' });
  }
}
