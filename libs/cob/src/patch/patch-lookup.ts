/**
 * Lookups with the node's three outcomes (radicle `patch::lookup`): a live target, `null` when
 * it was redacted (the action is then ignored), and an error when it never existed.
 */
import { RejectedError } from '@forge-httpd/identity';
import type { Oid } from '@forge-httpd/storage';
import type { PatchState, Review, Revision } from './patch-state.js';

/** Finds a revision: live, null when redacted; throws when unknown. */
export function lookupRevision(patch: PatchState, id: Oid): Revision | null {
  const revision = patch.revisions.get(id);
  if (revision === undefined) throw new RejectedError(`revision ${id} missing`);
  return revision;
}

/** Finds a review and its revision: null when it or its revision was redacted; throws when unknown. */
export function lookupReview(patch: PatchState, id: Oid): { revision: Revision; review: Review } | null {
  const locator = patch.reviews.get(id);
  if (locator === undefined) throw new RejectedError(`review ${id} missing`);
  if (locator === null) return null;
  const revision = patch.revisions.get(locator.revision);
  if (revision === undefined) throw new RejectedError(`revision ${locator.revision} missing`);
  if (revision === null) return null;
  const review = revision.reviews.get(locator.reviewer);
  if (review === undefined) throw new RejectedError(`review ${id} missing`);
  return { revision, review };
}
