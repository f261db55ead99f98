/**
 * Issues (docs/api.md 20–21; docs/radicle-httpd.md §6.4). Keys are listed in the order the server writes
 * them; timestamps are seconds.
 */
import * as v from 'valibot';
import { delegateRefSchema } from './repo.js';
import { oidSchema, timestampSchema } from './scalars.js';

/** An author reference `{id: did, alias?}`; `alias` is omitted when unknown. */
export const authorSchema = delegateRefSchema;
export type Author = v.InferOutput<typeof authorSchema>;

/** A file attached to a comment: `content` is the embed URI (e.g. `git:<blob oid>`). */
export const embedSchema = v.object({ name: v.string(), content: v.string() });
export type Embed = v.InferOutput<typeof embedSchema>;

/** Authors who reacted with one emoji (no location). */
export const reactionSchema = v.object({ emoji: v.string(), authors: v.array(authorSchema) });
export type Reaction = v.InferOutput<typeof reactionSchema>;

/** One version of a comment body; the first edit is the original. */
export const commentEditSchema = v.object({
  author: authorSchema,
  body: v.string(),
  timestamp: timestampSchema,
  embeds: v.array(embedSchema),
});
export type CommentEdit = v.InferOutput<typeof commentEditSchema>;

/** A comment of an issue discussion. */
export const issueCommentSchema = v.object({
  id: oidSchema,
  author: authorSchema,
  body: v.string(),
  edits: v.array(commentEditSchema),
  embeds: v.array(embedSchema),
  reactions: v.array(reactionSchema),
  timestamp: timestampSchema,
  replyTo: v.nullable(oidSchema),
  resolved: v.boolean(),
});
export type IssueComment = v.InferOutput<typeof issueCommentSchema>;

/** Issue state. */
export const issueStateSchema = v.union([
  v.object({ status: v.literal('open') }),
  v.object({ status: v.literal('closed'), reason: v.picklist(['other', 'solved']) }),
]);
export type IssueState = v.InferOutput<typeof issueStateSchema>;

/** An issue; `discussion[0]` is its body and has the issue's id. */
export const issueSchema = v.object({
  id: oidSchema,
  author: authorSchema,
  title: v.string(),
  state: issueStateSchema,
  assignees: v.array(authorSchema),
  discussion: v.array(issueCommentSchema),
  labels: v.array(v.string()),
});
export type Issue = v.InferOutput<typeof issueSchema>;
