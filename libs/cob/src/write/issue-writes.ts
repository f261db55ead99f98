import { compareUtf8 } from '@forge-httpd/identity';
/**
 * Issue operations as `rad issue` performs them (docs/node-home.md §7.1: actions and messages).
 */
import type { Did } from '@forge-httpd/identity';
import type { Oid } from '@forge-httpd/storage';
import { compareNids } from '../model/compare.js';
import { embedRefs } from './embed-refs.js';
import type { EmbedFile } from './write-change.js';
import { type CobWriteContext, createCob, updateCob } from './write-cob.js';

/** Issue state for {@link setIssueState}. */
export type IssueStateInput = { status: 'open' } | { status: 'closed'; reason: 'other' | 'solved' };

/**
 * Opens an issue: `comment{description}`, `edit{title}`, then `assign` and `label` when given.
 * @returns the issue id
 */
export async function createIssue(
  context: CobWriteContext,
  issue: { title: string; description: string; labels?: readonly string[]; assignees?: readonly Did[]; embeds?: readonly EmbedFile[] },
): Promise<Oid> {
  const actions: unknown[] = [
    { type: 'comment', body: issue.description, embeds: optional(embedRefs(issue.embeds)) },
    { type: 'edit', title: issue.title },
  ];
  if (issue.assignees?.length) actions.push({ type: 'assign', assignees: sortedSet(issue.assignees) });
  if (issue.labels?.length) actions.push({ type: 'label', labels: sortedSet(issue.labels) });
  return createCob(context, { kind: 'issue', actions, message: 'Create issue', embeds: issue.embeds });
}

/** Adds any issue actions as one change (for batching or unusual histories). */
export function updateIssue(
  context: CobWriteContext,
  args: { issue: Oid; actions: readonly unknown[]; message: string; embeds?: readonly EmbedFile[]; tips?: readonly Oid[] },
): Promise<Oid> {
  return updateCob(context, { kind: 'issue', id: args.issue, actions: args.actions, message: args.message, embeds: args.embeds, tips: args.tips });
}

/**
 * Comments on an issue, replying to the issue body unless `replyTo` is given; `tips` models a
 * writer that had not seen later changes. Returns the comment id.
 */
export function commentIssue(
  context: CobWriteContext,
  args: { issue: Oid; body: string; replyTo?: Oid; embeds?: readonly EmbedFile[]; tips?: readonly Oid[] },
): Promise<Oid> {
  const action = { type: 'comment', body: args.body, replyTo: args.replyTo ?? args.issue, embeds: optional(embedRefs(args.embeds)) };
  return updateIssue(context, { issue: args.issue, actions: [action], message: 'Comment', embeds: args.embeds, tips: args.tips });
}

/** Edits a comment (the issue id edits the description). */
export function editIssueComment(context: CobWriteContext, args: { issue: Oid; comment: Oid; body: string; embeds?: readonly EmbedFile[] }): Promise<Oid> {
  const message = args.comment === args.issue ? 'Edit description' : 'Edit comment';
  const action = { type: 'comment.edit', id: args.comment, body: args.body, embeds: embedRefs(args.embeds) };
  return updateIssue(context, { issue: args.issue, actions: [action], message, embeds: args.embeds });
}

/** Redacts a comment. */
export function redactIssueComment(context: CobWriteContext, args: { issue: Oid; comment: Oid }): Promise<Oid> {
  return updateIssue(context, { issue: args.issue, actions: [{ type: 'comment.redact', id: args.comment }], message: 'Redact comment' });
}

/** Adds (or with `active: false` removes) a reaction to a comment. */
export function reactIssueComment(context: CobWriteContext, args: { issue: Oid; comment: Oid; reaction: string; active?: boolean }): Promise<Oid> {
  const action = { type: 'comment.react', id: args.comment, reaction: args.reaction, active: args.active ?? true };
  return updateIssue(context, { issue: args.issue, actions: [action], message: 'React' });
}

/** Renames an issue. */
export function editIssueTitle(context: CobWriteContext, args: { issue: Oid; title: string }): Promise<Oid> {
  return updateIssue(context, { issue: args.issue, actions: [{ type: 'edit', title: args.title }], message: 'Edit' });
}

/** Replaces the label set. */
export function labelIssue(context: CobWriteContext, args: { issue: Oid; labels: readonly string[] }): Promise<Oid> {
  return updateIssue(context, { issue: args.issue, actions: [{ type: 'label', labels: sortedSet(args.labels) }], message: 'Label' });
}

/** Replaces the assignee set. */
export function assignIssue(context: CobWriteContext, args: { issue: Oid; assignees: readonly Did[] }): Promise<Oid> {
  return updateIssue(context, { issue: args.issue, actions: [{ type: 'assign', assignees: sortedSet(args.assignees) }], message: 'Assign' });
}

/** Opens or closes an issue. */
export function setIssueState(context: CobWriteContext, args: { issue: Oid; state: IssueStateInput }): Promise<Oid> {
  return updateIssue(context, { issue: args.issue, actions: [{ type: 'lifecycle', state: args.state }], message: 'Lifecycle' });
}

/** Sorted, deduplicated list (how the node serialises a `BTreeSet`). */
export function sortedSet<T extends string>(items: readonly T[]): T[] {
  return [...new Set(items)].sort(compareSetMembers);
}

// DIDs sort by key (like the node's BTreeSet<Did>), labels by code point.
function compareSetMembers(a: string, b: string): number {
  return a.startsWith('did:key:') && b.startsWith('did:key:') ? compareNids(a.slice(8), b.slice(8)) : compareUtf8(a, b);
}

/** `undefined` for an empty list, so canonical JSON omits it (serde `skip_serializing_if`). */
export function optional<T>(items: T[]): T[] | undefined {
  return items.length === 0 ? undefined : items;
}
