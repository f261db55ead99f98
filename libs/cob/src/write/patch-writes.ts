/**
 * Patch operations as the CLI and remote helper perform them (docs/node-home.md §7.2, heartwood
 * `PatchMut` messages). Creating or revising a patch also moves the author's
 * `refs/heads/patches/<patch id>` to the revision head, like the remote helper.
 */
import type { Did } from '@forge-httpd/identity';
import type { Oid } from '@forge-httpd/storage';
import type { CodeLocation } from '../model/values.js';
import { embedRefs } from './embed-refs.js';
import { optional, sortedSet } from './issue-writes.js';
import type { EmbedFile } from './write-change.js';
import { type CobWriteContext, createCob, updateCob } from './write-cob.js';

/** Review verdict. */
export type VerdictInput = 'accept' | 'reject';

/**
 * Opens a patch: `revision`, `edit{title, target}`, then `label` and `lifecycle{draft}` if asked.
 * @param patch.base - the merge base of the target and `oid` (compute it with git when unsure)
 * @returns the patch id
 */
export function createPatch(
  context: CobWriteContext,
  patch: { title: string; description: string; base: Oid; oid: Oid; labels?: readonly string[]; draft?: boolean },
): Promise<Oid> {
  const actions: unknown[] = [
    { type: 'revision', description: patch.description, base: patch.base, oid: patch.oid },
    { type: 'edit', title: patch.title, target: 'delegates' },
  ];
  if (patch.labels?.length) actions.push({ type: 'label', labels: sortedSet(patch.labels) });
  if (patch.draft) actions.push({ type: 'lifecycle', state: { status: 'draft' } });
  return createCob(context, {
    kind: 'patch',
    actions,
    message: 'Create patch',
    related: [patch.base, patch.oid],
    refs: [{ name: 'refs/heads/patches/{id}', oid: patch.oid }],
  });
}

/** Adds any patch actions as one change; `related` must list commits the actions name. */
export function updatePatch(
  context: CobWriteContext,
  args: {
    patch: Oid;
    actions: readonly unknown[];
    message: string;
    related?: readonly Oid[];
    embeds?: readonly EmbedFile[];
    headRef?: Oid;
    tips?: readonly Oid[];
  },
): Promise<Oid> {
  const refs = args.headRef === undefined ? [] : [{ name: `refs/heads/patches/${args.patch}`, oid: args.headRef }];
  const { patch: id, actions, message, related, embeds, tips } = args;
  return updateCob(context, { kind: 'patch', id, actions, message, related, embeds, refs, tips });
}

/** Proposes a new revision; returns the revision id. */
export function revisePatch(context: CobWriteContext, args: { patch: Oid; description: string; base: Oid; oid: Oid }): Promise<Oid> {
  const action = { type: 'revision', description: args.description, base: args.base, oid: args.oid };
  return updatePatch(context, { patch: args.patch, actions: [action], message: 'Add revision', related: [args.base, args.oid], headRef: args.oid });
}

/** Renames a patch, optionally retargeting it at a named branch (`refs/heads/…`). */
export function editPatchTitle(context: CobWriteContext, args: { patch: Oid; title: string; targetBranch?: string }): Promise<Oid> {
  const target = args.targetBranch === undefined ? 'delegates' : { branch: args.targetBranch };
  return updatePatch(context, { patch: args.patch, actions: [{ type: 'edit', title: args.title, target }], message: 'Edit' });
}

/** Edits a revision's description. */
export function editRevision(context: CobWriteContext, args: { patch: Oid; revision: Oid; description: string; embeds?: readonly EmbedFile[] }): Promise<Oid> {
  const action = { type: 'revision.edit', revision: args.revision, description: args.description, embeds: optional(embedRefs(args.embeds)) };
  return updatePatch(context, { patch: args.patch, actions: [action], message: 'Edit revision', embeds: args.embeds });
}

/** Redacts a revision. */
export function redactRevision(context: CobWriteContext, args: { patch: Oid; revision: Oid }): Promise<Oid> {
  return updatePatch(context, { patch: args.patch, actions: [{ type: 'revision.redact', revision: args.revision }], message: 'Redact revision' });
}

/** Reviews a revision; returns the review id. */
export function reviewPatch(
  context: CobWriteContext,
  args: { patch: Oid; revision: Oid; verdict?: VerdictInput; summary?: string; labels?: readonly string[]; tips?: readonly Oid[] },
): Promise<Oid> {
  const action = { type: 'review', revision: args.revision, verdict: args.verdict, summary: args.summary, labels: optional([...(args.labels ?? [])]) };
  return updatePatch(context, { patch: args.patch, actions: [action], message: 'Review', tips: args.tips });
}

/**
 * Edits a review: replaces its verdict and labels and adds a summary edit. Version 2 (the
 * default, what current Radicle writes) always records the summary, with embeds; version 1
 * (`review.edit`, older nodes) keeps the previous summary when none is given.
 */
export function editReview(
  context: CobWriteContext,
  args: { patch: Oid; review: Oid; verdict?: VerdictInput; summary?: string; labels?: readonly string[]; embeds?: readonly EmbedFile[]; version?: 1 | 2 },
): Promise<Oid> {
  const labels = optional([...(args.labels ?? [])]);
  const action =
    args.version === 1
      ? { type: 'review.edit', review: args.review, summary: args.summary, verdict: args.verdict, labels }
      : {
          type: 'review.edit.v2',
          review: args.review,
          summary: args.summary || undefined,
          verdict: args.verdict,
          labels,
          embeds: optional(embedRefs(args.embeds)),
        };
  return updatePatch(context, { patch: args.patch, actions: [action], message: 'Edit review', embeds: args.embeds });
}

/** Reacts to a review (or withdraws the reaction with `active: false`). */
export function reactReview(context: CobWriteContext, args: { patch: Oid; review: Oid; reaction: string; active?: boolean }): Promise<Oid> {
  const action = { type: 'review.react', review: args.review, reaction: args.reaction, active: args.active ?? true };
  return updatePatch(context, { patch: args.patch, actions: [action], message: 'React to review' });
}

/** Redacts a review. */
export function redactReview(context: CobWriteContext, args: { patch: Oid; review: Oid }): Promise<Oid> {
  return updatePatch(context, { patch: args.patch, actions: [{ type: 'review.redact', review: args.review }], message: 'Redact review' });
}

/** Comments on a review, optionally on a code location or as a reply; returns the comment id. */
export function commentReview(
  context: CobWriteContext,
  args: { patch: Oid; review: Oid; body: string; location?: CodeLocation; replyTo?: Oid; embeds?: readonly EmbedFile[] },
): Promise<Oid> {
  // The node spells this field `reply_to` (its enum renames variants, not fields).
  const action = {
    type: 'review.comment',
    review: args.review,
    body: args.body,
    location: args.location,
    reply_to: args.replyTo,
    embeds: optional(embedRefs(args.embeds)),
  };
  return updatePatch(context, { patch: args.patch, actions: [action], message: 'Review comment', embeds: args.embeds });
}

/** Resolves (or unresolves) a review comment. */
export function resolveReviewComment(context: CobWriteContext, args: { patch: Oid; review: Oid; comment: Oid; resolved?: boolean }): Promise<Oid> {
  const resolved = args.resolved ?? true;
  const action = { type: resolved ? 'review.comment.resolve' : 'review.comment.unresolve', review: args.review, comment: args.comment };
  return updatePatch(context, { patch: args.patch, actions: [action], message: resolved ? 'Resolve review comment' : 'Unresolve review comment' });
}

/** Reacts to a review comment. */
export function reactReviewComment(
  context: CobWriteContext,
  args: { patch: Oid; review: Oid; comment: Oid; reaction: string; active?: boolean },
): Promise<Oid> {
  const action = { type: 'review.comment.react', review: args.review, comment: args.comment, reaction: args.reaction, active: args.active ?? true };
  return updatePatch(context, { patch: args.patch, actions: [action], message: 'React to review comment' });
}

/** Comments on a revision; returns the comment id. */
export function commentRevision(
  context: CobWriteContext,
  args: { patch: Oid; revision: Oid; body: string; location?: CodeLocation; replyTo?: Oid; embeds?: readonly EmbedFile[] },
): Promise<Oid> {
  const action = {
    type: 'revision.comment',
    revision: args.revision,
    body: args.body,
    location: args.location,
    replyTo: args.replyTo,
    embeds: optional(embedRefs(args.embeds)),
  };
  return updatePatch(context, { patch: args.patch, actions: [action], message: 'Comment', embeds: args.embeds });
}

/** Reacts to a revision comment. */
export function reactRevisionComment(
  context: CobWriteContext,
  args: { patch: Oid; revision: Oid; comment: Oid; reaction: string; active?: boolean },
): Promise<Oid> {
  const action = { type: 'revision.comment.react', revision: args.revision, comment: args.comment, reaction: args.reaction, active: args.active ?? true };
  return updatePatch(context, { patch: args.patch, actions: [action], message: 'React comment' });
}

/** Reacts to a revision, optionally at a code location. */
export function reactRevision(
  context: CobWriteContext,
  args: { patch: Oid; revision: Oid; reaction: string; location?: CodeLocation; active?: boolean },
): Promise<Oid> {
  const action = { type: 'revision.react', revision: args.revision, reaction: args.reaction, location: args.location, active: args.active ?? true };
  return updatePatch(context, { patch: args.patch, actions: [action], message: 'React' });
}

/** Replaces the label set. */
export function labelPatch(context: CobWriteContext, args: { patch: Oid; labels: readonly string[] }): Promise<Oid> {
  return updatePatch(context, { patch: args.patch, actions: [{ type: 'label', labels: sortedSet(args.labels) }], message: 'Label' });
}

/** Replaces the assignee set. */
export function assignPatch(context: CobWriteContext, args: { patch: Oid; assignees: readonly Did[] }): Promise<Oid> {
  return updatePatch(context, { patch: args.patch, actions: [{ type: 'assign', assignees: sortedSet(args.assignees) }], message: 'Assign' });
}

/** Moves a patch to open, draft or archived. */
export function setPatchState(context: CobWriteContext, args: { patch: Oid; state: 'open' | 'draft' | 'archived' }): Promise<Oid> {
  return updatePatch(context, { patch: args.patch, actions: [{ type: 'lifecycle', state: { status: args.state } }], message: 'Lifecycle' });
}

/** Records the writer's merge of a revision at `commit` (on the writer's default branch). */
export function mergePatch(context: CobWriteContext, args: { patch: Oid; revision: Oid; commit: Oid }): Promise<Oid> {
  const action = { type: 'merge', revision: args.revision, commit: args.commit };
  return updatePatch(context, { patch: args.patch, actions: [action], message: 'Merge revision', related: [args.commit] });
}
