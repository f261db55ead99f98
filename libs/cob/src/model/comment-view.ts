import type { Nid } from '@forge-httpd/identity';
import type { Oid } from '@forge-httpd/storage';
import { type Comment, type Edit, groupReactions, type ReactionGroup, type Thread, threadComments } from './thread.js';
import type { Embed } from './values.js';

/** A comment as the API presents it (docs/node-home.md §7, docs/radicle-httpd.md §6.4). */
export interface CommentView<L> {
  readonly id: Oid;
  readonly author: Nid;
  /** Body of the latest edit. */
  readonly body: string;
  /** Full edit history, oldest first (the first edit is the original). */
  readonly edits: readonly Edit[];
  /** Embeds of the latest edit. */
  readonly embeds: readonly Embed[];
  readonly reactions: readonly ReactionGroup[];
  /** Time of the first edit, seconds. */
  readonly timestamp: number;
  readonly replyTo: Oid | null;
  readonly location: L | null;
  readonly resolved: boolean;
}

/** Snapshots one comment. */
function viewComment<L>(id: Oid, comment: Comment<L>): CommentView<L> {
  const first = comment.edits[0] as Edit;
  const last = comment.edits[comment.edits.length - 1] as Edit;
  return {
    id,
    author: comment.author,
    body: last.body,
    edits: [...comment.edits],
    embeds: last.embeds,
    reactions: groupReactions(comment.reactions.values()),
    timestamp: first.timestamp,
    replyTo: comment.replyTo,
    location: comment.location,
    resolved: comment.resolved,
  };
}

/** Snapshots a thread's comments in discussion order. */
export function viewThread<L>(thread: Thread<L>): CommentView<L>[] {
  return threadComments(thread).map(([id, comment]) => viewComment(id, comment));
}
