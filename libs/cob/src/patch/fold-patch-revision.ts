/**
 * Patch reducer cases that act on revisions: new revisions, description edits, reactions,
 * redactions and the revision discussion (radicle `Patch::action`).
 */
import type { Change } from '../change.js';
import { canonicalJson, RejectedError } from '@forge-httpd/identity';
import { addComment, editComment, reactToComment, redactComment } from '../model/thread.js';
import { newThread } from '../model/thread.js';
import type { PatchAction } from './patch-action.js';
import { lookupRevision } from './patch-lookup.js';
import { type PatchState, rootRevision } from './patch-state.js';

type Of<T extends PatchAction['type']> = Extract<PatchAction, { type: T }>;
/** An action of the given types with the change carrying it. */
type Op<T extends PatchAction['type']> = { readonly action: Of<T>; readonly change: Change };

/** Adds a revision keyed by the change id. */
export function addRevision(patch: PatchState, { action, change }: Op<'revision'>): void {
  patch.revisions.set(change.id, {
    id: change.id,
    author: change.author,
    description: [{ author: change.author, timestamp: change.timestamp, body: action.description, embeds: [] }],
    base: action.base,
    oid: action.oid,
    discussion: newThread(),
    reviews: new Map(),
    timestamp: change.timestamp,
    resolves: action.resolves,
    reactions: new Map(),
  });
}

/** Appends a description edit; ignored when the revision was redacted. */
export function editRevision(patch: PatchState, { action, change }: Op<'revision.edit'>): void {
  const revision = patch.revisions.get(action.revision);
  if (revision === undefined) throw new RejectedError(`revision ${action.revision} missing`);
  revision?.description.push({ author: change.author, timestamp: change.timestamp, body: action.description, embeds: action.embeds });
}

/** Adds or removes a reaction at an optional code location. */
export function reactToRevision(patch: PatchState, { action, change }: Op<'revision.react'>): void {
  const revision = lookupRevision(patch, action.revision);
  if (revision === null) return;
  const key = action.location === null ? '' : canonicalJson(action.location);
  const entry = revision.reactions.get(key) ?? { location: action.location, reactions: new Map() };
  revision.reactions.set(key, entry);
  const reactionKey = `${change.author} ${action.reaction}`;
  if (action.active) entry.reactions.set(reactionKey, { author: change.author, emoji: action.reaction });
  else entry.reactions.delete(reactionKey);
}

/** Redacts a revision; the root revision cannot be, a merged one is kept. */
export function redactRevision(patch: PatchState, action: Of<'revision.redact'>): void {
  if (rootRevision(patch)?.id === action.revision) throw new RejectedError('the root revision cannot be redacted');
  if (!patch.revisions.has(action.revision)) throw new RejectedError(`revision ${action.revision} missing`);
  if ([...patch.merges.values()].some((merge) => merge.revision === action.revision)) return;
  patch.revisions.set(action.revision, null);
}

/** Applies a revision-discussion action; ignored when the revision was redacted. */
export function applyRevisionComment(
  patch: PatchState,
  { action, change }: Op<'revision.comment' | 'revision.comment.edit' | 'revision.comment.redact' | 'revision.comment.react'>,
): void {
  const revision = lookupRevision(patch, action.revision);
  if (revision === null) return;
  const thread = revision.discussion;
  const { id, author, timestamp } = change;
  switch (action.type) {
    case 'revision.comment':
      return addComment(thread, { id, author, timestamp, body: action.body, replyTo: action.replyTo, location: action.location, embeds: action.embeds });
    case 'revision.comment.edit':
      return editComment(thread, { id, comment: action.comment, author, timestamp, body: action.body, embeds: action.embeds });
    case 'revision.comment.redact':
      return redactComment(thread, { id, comment: action.comment });
    case 'revision.comment.react':
      return reactToComment(thread, { id, author, comment: action.comment, emoji: action.reaction, active: action.active });
  }
}
