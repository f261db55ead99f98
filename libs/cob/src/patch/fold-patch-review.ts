/**
 * Patch reducer cases that act on reviews and their comment threads (radicle `Patch::action`).
 */
import { RejectedError } from '@forge-httpd/identity';
import type { Change } from '../change.js';
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
    summary: [{ author: change.author, timestamp: change.timestamp, body: action.summary ?? '', embeds: [] }],
    comments: newThread(),
    labels: action.labels,
    timestamp: change.timestamp,
    reactions: new Map(),
  });
  patch.reviews.set(change.id, { revision: action.revision, reviewer: change.author });
}

/**
 * Edits a review (heartwood `patch/actions.rs` `ReviewEdit::run`): the summary gains an edit
 * (v1 only when one is given, v2 always, with embeds), verdict and labels are replaced. Neither
 * summary nor verdict is an error.
 */
export function editReview(patch: PatchState, op: { action: Of<'review.edit'>; change: Change }): void {
  const { action, change } = op;
  if ((action.summary === null || action.summary === '') && action.verdict === null) throw new RejectedError('empty review');
  const found = lookupReview(patch, action.review);
  if (found === null) return;
  if (action.summary !== null) {
    found.review.summary.push({ author: change.author, timestamp: change.timestamp, body: action.summary, embeds: action.embeds });
  }
  found.review.verdict = action.verdict;
  found.review.labels = action.labels;
}

/** Toggles one (author, emoji) reaction on a review; ignored when the review was redacted. */
export function reactToReview(patch: PatchState, op: { action: Of<'review.react'>; change: Change }): void {
  const { action, change } = op;
  const found = lookupReview(patch, action.review);
  if (found === null) return;
  const key = `${change.author} ${action.reaction}`;
  if (action.active) found.review.reactions.set(key, { author: change.author, emoji: action.reaction });
  else found.review.reactions.delete(key);
}

/** Redacts a review. */
export function redactReview(patch: PatchState, action: Of<'review.redact'>): void {
  const locator = patch.reviews.get(action.review);
  if (locator === undefined) throw new RejectedError(`review ${action.review} missing`);
  if (locator === null) return;
  const revision = patch.revisions.get(locator.revision);
  if (revision === undefined) throw new RejectedError(`revision ${locator.revision} missing`);
  if (revision === null) return;
  revision.reviews.delete(locator.reviewer);
  patch.reviews.set(action.review, null);
}

/** Applies a review-comment action; ignored when the review or its revision was redacted. */
export function applyReviewComment(
  patch: PatchState,
  op: {
    action: Of<
      'review.comment' | 'review.comment.edit' | 'review.comment.redact' | 'review.comment.react' | 'review.comment.resolve' | 'review.comment.unresolve'
    >;
    change: Change;
  },
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
