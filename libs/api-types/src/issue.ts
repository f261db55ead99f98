/**
 * Wire types of issues (api.md 20–21; behaviour.md B §6.4). Keys are listed in the order the
 * server writes them; timestamps are seconds.
 */
import type { DelegateRef } from './repo.js';

/** An author reference `{id: did, alias?}`; `alias` is omitted when unknown. */
export type Author = DelegateRef;

/** A file attached to a comment: `content` is the embed URI (e.g. `git:<blob oid>`). */
export interface Embed {
  name: string;
  content: string;
}

/** Authors who reacted with one emoji (no location). */
export interface Reaction {
  emoji: string;
  authors: Author[];
}

/** One version of a comment body; the first edit is the original. */
export interface CommentEdit {
  author: Author;
  body: string;
  timestamp: number;
  embeds: Embed[];
}

/** A comment of an issue discussion. */
export interface IssueComment {
  id: string;
  author: Author;
  body: string;
  edits: CommentEdit[];
  embeds: Embed[];
  reactions: Reaction[];
  timestamp: number;
  replyTo: string | null;
  resolved: boolean;
}

/** Issue state. */
export type IssueState = { status: 'open' } | { status: 'closed'; reason: 'other' | 'solved' };

/** An issue; `discussion[0]` is its body and has the issue's id. */
export interface Issue {
  id: string;
  author: Author;
  title: string;
  state: IssueState;
  assignees: Author[];
  discussion: IssueComment[];
  labels: string[];
}
