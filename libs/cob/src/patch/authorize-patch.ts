import type { Nid } from '@forge-httpd/identity';
import type { Oid } from '@forge-httpd/storage';
import type { Authorization } from '../issue/authorize-issue.js';
import { sameSet } from '../model/compare.js';
import { type IdentityDoc, isDelegate } from '../model/identity-doc.js';
import { liveComment } from '../model/thread.js';
import type { PatchAction } from './patch-action.js';
import { lookupReview, lookupRevision } from './patch-lookup.js';
import type { PatchState } from './patch-state.js';

/**
 * Decides whether `actor` may apply a patch action (docs/node-home.md §7.2, radicle
 * `Patch::authorization`). Delegates may do anything; the patch author may edit and change the
 * lifecycle; anyone may propose revisions, review, comment and react; authors of revisions,
 * reviews and comments edit or redact their own; resolving belongs to the comment author, the
 * reviewer and the revision author; others may only re-assert labels, never assign or merge.
 * @throws RejectedError when the action names a revision or review that never existed
 */
export function authorizePatchAction(patch: PatchState, request: { action: PatchAction; actor: Nid; doc: IdentityDoc }): Authorization {
  const { action, actor, doc } = request;
  if (isDelegate(doc, actor)) return 'allow';
  switch (action.type) {
    case 'edit':
    case 'lifecycle':
      return allowIf(actor === patch.author);
    case 'label':
      return allowIf(sameSet(action.labels, patch.labels));
    case 'assign':
    case 'merge':
      return 'deny';
    case 'review':
    case 'review.react':
    case 'review.comment':
    case 'review.comment.react':
    case 'revision':
    case 'revision.react':
    case 'revision.comment':
    case 'revision.comment.react':
      return 'allow';
    case 'review.edit':
    case 'review.redact':
      return reviewAuthor(patch, { id: action.review, actor });
    case 'review.comment.edit':
    case 'review.comment.redact':
      return reviewCommentAuthor(patch, { review: action.review, comment: action.comment, actor });
    case 'review.comment.resolve':
    case 'review.comment.unresolve':
      return resolver(patch, { review: action.review, comment: action.comment, actor });
    case 'revision.edit':
    case 'revision.redact':
      return revisionAuthor(patch, { id: action.revision, actor });
    case 'revision.comment.edit':
    case 'revision.comment.redact':
      return revisionCommentAuthor(patch, { revision: action.revision, comment: action.comment, actor });
  }
}

function reviewAuthor(patch: PatchState, { id, actor }: { id: Oid; actor: Nid }): Authorization {
  const found = lookupReview(patch, id);
  return found === null ? 'unknown' : allowIf(found.review.author === actor);
}

function reviewCommentAuthor(patch: PatchState, ref: { review: Oid; comment: Oid; actor: Nid }): Authorization {
  const found = lookupReview(patch, ref.review);
  const comment = found === null ? undefined : liveComment(found.review.comments, ref.comment);
  return comment === undefined ? 'unknown' : allowIf(comment.author === ref.actor);
}

function resolver(patch: PatchState, ref: { review: Oid; comment: Oid; actor: Nid }): Authorization {
  const { actor } = ref;
  const found = lookupReview(patch, ref.review);
  const comment = found === null ? undefined : liveComment(found.review.comments, ref.comment);
  if (found === null || comment === undefined) return 'unknown';
  return allowIf(actor === comment.author || actor === found.review.author || actor === found.revision.author);
}

function revisionAuthor(patch: PatchState, { id, actor }: { id: Oid; actor: Nid }): Authorization {
  const revision = lookupRevision(patch, id);
  return revision === null ? 'unknown' : allowIf(revision.author === actor);
}

function revisionCommentAuthor(patch: PatchState, ref: { revision: Oid; comment: Oid; actor: Nid }): Authorization {
  const revision = lookupRevision(patch, ref.revision);
  const comment = revision === null ? undefined : liveComment(revision.discussion, ref.comment);
  return comment === undefined ? 'unknown' : allowIf(comment.author === ref.actor);
}

function allowIf(condition: boolean): Authorization {
  return condition ? 'allow' : 'deny';
}
