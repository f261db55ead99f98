/**
 * Patches (docs/api.md 22–23; docs/radicle-httpd.md §6.5). Keys are listed in the order the server writes
 * them; timestamps are seconds.
 */
import * as v from 'valibot';
import { authorSchema, commentEditSchema, issueCommentSchema, reactionSchema } from './issue.js';
import { integerSchema, oidSchema, timestampSchema } from './scalars.js';

const span = v.object({ start: integerSchema, end: integerSchema });

/** A line or character range in a code location. */
export const codeRangeSchema = v.union([
  v.object({ type: v.literal('lines'), range: span }),
  v.object({ type: v.literal('chars'), line: integerSchema, range: span }),
]);
export type CodeRange = v.InferOutput<typeof codeRangeSchema>;

/** A place in a revision's diff; `old`/`new` are omitted when absent. */
export const codeLocationSchema = v.object({
  commit: oidSchema,
  path: v.string(),
  old: v.optional(codeRangeSchema),
  new: v.optional(codeRangeSchema),
});
export type CodeLocation = v.InferOutput<typeof codeLocationSchema>;

// An issue comment's keys, with `location` between `replyTo` and `resolved` (wire order).
const { resolved, ...issueCommentEntries } = issueCommentSchema.entries;

/** A comment of a revision discussion or a review; `location` is null when none. */
export const patchCommentSchema = v.object({
  ...issueCommentEntries,
  location: v.nullable(codeLocationSchema),
  resolved,
});
export type PatchComment = v.InferOutput<typeof patchCommentSchema>;

/** A revision reaction: without `location` when it is on the whole revision. */
export const revisionReactionSchema = v.object({
  location: v.optional(codeLocationSchema),
  emoji: v.string(),
  authors: v.array(authorSchema),
});
export type RevisionReaction = v.InferOutput<typeof revisionReactionSchema>;

/**
 * A review of a revision (its labels are not shown). `summary` is the latest summary edit
 * (`""` when none); `reactions` (not shown by radicle-httpd) come from `review.react`.
 */
export const reviewSchema = v.object({
  id: oidSchema,
  author: authorSchema,
  verdict: v.nullable(v.picklist(['accept', 'reject'])),
  summary: v.string(),
  comments: v.array(patchCommentSchema),
  reactions: v.array(reactionSchema),
  timestamp: timestampSchema,
});
export type Review = v.InferOutput<typeof reviewSchema>;

/** A revision of a patch; the first revision's id is the patch id. */
export const revisionSchema = v.object({
  id: oidSchema,
  author: authorSchema,
  description: v.string(),
  edits: v.array(commentEditSchema),
  reactions: v.array(revisionReactionSchema),
  base: oidSchema,
  oid: oidSchema,
  /** Names in the revision author's signed refs pointing at `oid`. */
  refs: v.array(v.string()),
  discussions: v.array(patchCommentSchema),
  timestamp: timestampSchema,
  reviews: v.array(reviewSchema),
});
export type Revision = v.InferOutput<typeof revisionSchema>;

/** A delegate's merge. */
export const patchMergeSchema = v.object({
  author: authorSchema,
  commit: oidSchema,
  timestamp: timestampSchema,
  revision: oidSchema,
});
export type PatchMerge = v.InferOutput<typeof patchMergeSchema>;

/** Patch state. */
export const patchStateSchema = v.union([
  v.object({ status: v.literal('draft') }),
  v.object({ status: v.literal('open'), conflicts: v.optional(v.array(v.strictTuple([oidSchema, oidSchema]))) }),
  v.object({ status: v.literal('archived') }),
  v.object({ status: v.literal('merged'), revision: oidSchema, commit: oidSchema }),
]);
export type PatchState = v.InferOutput<typeof patchStateSchema>;

/** A patch. */
export const patchSchema = v.object({
  id: oidSchema,
  author: authorSchema,
  title: v.string(),
  state: patchStateSchema,
  /** `"delegates"` (the default branch) or a named target's qualified branch name. */
  target: v.string(),
  labels: v.array(v.string()),
  merges: v.array(patchMergeSchema),
  assignees: v.array(authorSchema),
  revisions: v.array(revisionSchema),
});
export type Patch = v.InferOutput<typeof patchSchema>;
