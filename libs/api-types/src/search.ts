/**
 * Searching and comparing beyond radicle-httpd (docs/api.md "Beyond radicle-httpd"): code
 * search at a commit and the comparison of two commits. Keys in the order the server writes them.
 */
import * as v from 'valibot';
import { commitSchema } from './commit.js';
import { commitDiffSchema, diffFilesSchema } from './diff.js';
import { oidSchema } from './scalars.js';

/** One line of a file that holds the searched text. */
export const grepMatchSchema = v.object({
  /** The file's path in the tree. */
  path: v.string(),
  /** 1-based line number. */
  line: v.number(),
  /** The line as UTF-8 (invalid bytes as U+FFFD), cut to its first 1,000 characters. */
  text: v.string(),
});
export type GrepMatch = v.InferOutput<typeof grepMatchSchema>;

/** `GET /repos/{rid}/grep/{sha}`: matches by path, then line; at most 1,000. */
export const grepResponseSchema = v.object({
  matches: v.array(grepMatchSchema),
  /** More matches follow the ones listed. */
  truncated: v.boolean(),
});
export type GrepResponse = v.InferOutput<typeof grepResponseSchema>;

/** `GET /repos/{rid}/compare/{base}...{head}`. */
export const compareResponseSchema = v.object({
  base: oidSchema,
  head: oidSchema,
  /** `git merge-base base head`; null when the histories are unrelated. */
  mergeBase: v.nullable(oidSchema),
  /** Commits only `head` reaches. */
  ahead: v.number(),
  /** Commits only `base` reaches. */
  behind: v.number(),
  /** The `ahead` commits in the order of the commit list, at most 250. */
  commits: v.array(commitSchema),
  truncated: v.boolean(),
  /** From the merge base (else `base`) to `head`, as on the commit page. */
  diff: commitDiffSchema,
  files: diffFilesSchema,
});
export type CompareResponse = v.InferOutput<typeof compareResponseSchema>;
