/**
 * A discussion thread (radicle `cob::thread`), used by issues, revision discussions and review
 * comments. Comments are keyed by the id of the change that created them; `timeline` records the
 * change id of every thread action in application order (docs/node-home.md §7.1).
 */
import { compareUtf8, type Nid, RejectedError } from '@forge-httpd/identity';
import type { Oid } from '@forge-httpd/storage';
import { compareNids } from './compare.js';
import type { Embed } from './values.js';

/** One version of a comment body. */
export interface Edit {
  readonly author: Nid;
  readonly timestamp: number;
  readonly body: string;
  readonly embeds: readonly Embed[];
}

/** A comment; `L` is the code-location type (none for issues). */
export interface Comment<L> {
  readonly author: Nid;
  readonly edits: Edit[];
  /** Set of (author, emoji), keyed `author emoji`. */
  readonly reactions: Map<string, { readonly author: Nid; readonly emoji: string }>;
  readonly replyTo: Oid | null;
  readonly location: L | null;
  resolved: boolean;
}

/** Comments (null when redacted) and the timeline of thread actions. */
export interface Thread<L> {
  readonly comments: Map<Oid, Comment<L> | null>;
  readonly timeline: Oid[];
}

/** Reactions grouped per emoji, as the API shows them. */
export interface ReactionGroup {
  readonly emoji: string;
  readonly authors: readonly Nid[];
}

/** Creates an empty thread. */
export function newThread<L>(): Thread<L> {
  return { comments: new Map(), timeline: [] };
}

/** Adds a comment (the change id is the comment id); empty bodies and unknown parents reject. */
export function addComment<L>(
  thread: Thread<L>,
  comment: { id: Oid; author: Nid; timestamp: number; body: string; replyTo: Oid | null; location: L | null; embeds: readonly Embed[] },
): void {
  if (comment.body === '') throw new RejectedError(`comment ${comment.id} is empty`);
  if (comment.replyTo !== null && !thread.comments.has(comment.replyTo)) {
    throw new RejectedError(`comment ${comment.replyTo} missing`);
  }
  thread.timeline.push(comment.id);
  const edit: Edit = { author: comment.author, timestamp: comment.timestamp, body: comment.body, embeds: comment.embeds };
  thread.comments.set(comment.id, {
    author: comment.author,
    edits: [edit],
    reactions: new Map(),
    replyTo: comment.replyTo,
    location: comment.location,
    resolved: false,
  });
}

/** Appends an edit; a redacted comment is left alone, an unknown one rejects. */
export function editComment<L>(thread: Thread<L>, edit: { id: Oid; comment: Oid } & Edit): void {
  if (edit.body === '') throw new RejectedError(`edit ${edit.id} is empty`);
  thread.timeline.push(edit.id);
  const target = thread.comments.get(edit.comment);
  if (target === undefined) throw new RejectedError(`comment ${edit.comment} missing`);
  target?.edits.push({ author: edit.author, timestamp: edit.timestamp, body: edit.body, embeds: edit.embeds });
}

/** Redacts a comment (`id` is the redacting change); an unknown comment rejects. */
export function redactComment<L>(thread: Thread<L>, redaction: { id: Oid; comment: Oid }): void {
  if (!thread.comments.has(redaction.comment)) throw new RejectedError(`comment ${redaction.comment} missing`);
  thread.timeline.push(redaction.id);
  thread.comments.set(redaction.comment, null);
}

/** Adds or removes a reaction; ignored on a redacted comment, rejects on an unknown one. */
export function reactToComment<L>(thread: Thread<L>, reaction: { id: Oid; author: Nid; comment: Oid; emoji: string; active: boolean }): void {
  const target = thread.comments.get(reaction.comment);
  if (target === undefined) throw new RejectedError(`comment ${reaction.comment} missing`);
  if (target === null) return;
  thread.timeline.push(reaction.id);
  const key = `${reaction.author} ${reaction.emoji}`;
  if (reaction.active) target.reactions.set(key, { author: reaction.author, emoji: reaction.emoji });
  else target.reactions.delete(key);
}

/** Marks a review comment resolved or unresolved; ignored when redacted. */
export function resolveComment<L>(thread: Thread<L>, change: { id: Oid; comment: Oid; resolved: boolean }): void {
  const target = thread.comments.get(change.comment);
  if (target === undefined) throw new RejectedError(`comment ${change.comment} missing`);
  if (target === null) return;
  thread.timeline.push(change.id);
  target.resolved = change.resolved;
}

/** Returns a live comment by id (undefined when unknown or redacted). */
export function liveComment<L>(thread: Thread<L>, id: Oid): Comment<L> | undefined {
  return thread.comments.get(id) ?? undefined;
}

/**
 * Lists the comments in discussion order: timeline ids that name a live comment (radicle's
 * `Thread::comments`, duplicates included when one change touched the thread twice).
 */
export function threadComments<L>(thread: Thread<L>): [Oid, Comment<L>][] {
  const result: [Oid, Comment<L>][] = [];
  for (const id of thread.timeline) {
    const comment = thread.comments.get(id);
    if (comment) result.push([id, comment]);
  }
  return result;
}

/** Groups a reaction set per emoji (code-point order), authors in key order. */
export function groupReactions(reactions: Iterable<{ readonly author: Nid; readonly emoji: string }>): ReactionGroup[] {
  const sorted = [...reactions].sort((a, b) => compareNids(a.author, b.author) || compareUtf8(a.emoji, b.emoji));
  const groups = new Map<string, Nid[]>();
  for (const { author, emoji } of sorted) {
    const authors = groups.get(emoji) ?? [];
    authors.push(author);
    groups.set(emoji, authors);
  }
  return [...groups.entries()].sort(([a], [b]) => compareUtf8(a, b)).map(([emoji, authors]) => ({ emoji, authors }));
}
