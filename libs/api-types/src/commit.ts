/**
 * Commits (docs/api.md "Commit", operations 9–12; docs/radicle-httpd.md §4.3, §5.9–5.12). Keys are listed
 * in the order the server writes them.
 */
import * as v from 'valibot';
import { commitDiffSchema, diffFilesSchema, rangeDiffSchema } from './diff.js';
import { oidSchema, timestampSchema } from './scalars.js';

/** A commit (docs/radicle-httpd.md §4.3). `summary`/`description` follow docs/decisions.md. */
export const commitSchema = v.object({
  id: oidSchema,
  author: v.object({ name: v.string(), email: v.string() }),
  summary: v.string(),
  description: v.string(),
  /** Parent ids; empty for a root commit. */
  parents: v.array(oidSchema),
  /** `time`: committer time in seconds since the epoch (timezone dropped). */
  committer: v.object({ name: v.string(), email: v.string(), time: timestampSchema }),
});
export type Commit = v.InferOutput<typeof commitSchema>;

/** `GET /repos/{rid}/commits/{sha}` (docs/radicle-httpd.md §5.10). */
export const commitDetailSchema = v.object({
  commit: commitSchema,
  /** The commit against its first parent (root: against the empty tree). */
  diff: commitDiffSchema,
  files: diffFilesSchema,
  /** `refs/heads/*` then `refs/remotes/*` names (storage top level) that contain the commit. */
  branches: v.array(v.string()),
});
export type CommitDetail = v.InferOutput<typeof commitDetailSchema>;

/** `GET /repos/{rid}/diff/{base}/{oid}` (docs/radicle-httpd.md §5.11). */
export const rangeDiffResponseSchema = v.object({
  diff: rangeDiffSchema,
  files: diffFilesSchema,
  /** From `oid` back, newest first, stopping before `base`. */
  commits: v.array(commitSchema),
});
export type RangeDiffResponse = v.InferOutput<typeof rangeDiffResponseSchema>;

/** `GET /repos/{rid}/activity` (docs/radicle-httpd.md §5.12): committer times of the last 52 weeks, walk order. */
export const activitySchema = v.object({ activity: v.array(timestampSchema) });
export type Activity = v.InferOutput<typeof activitySchema>;
