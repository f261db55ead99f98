/**
 * Line attribution and the last commit of each tree entry (docs/api.md "Blame" and "Last
 * commits"): what a code browser shows beside each line and each name.
 */
import * as v from 'valibot';
import { commitSchema } from './commit.js';
import { integerSchema, oidSchema } from './scalars.js';

/** Lines `start..end` (1-based, inclusive) came from `origPath` in `commit`, from its line `origStart` on. */
export const blameRangeSchema = v.object({
  start: integerSchema,
  end: integerSchema,
  commit: oidSchema,
  /** The file's path in `commit` (another one when git followed a rename). */
  origPath: v.string(),
  origStart: integerSchema,
});
export type BlameRange = v.InferOutput<typeof blameRangeSchema>;

/** `GET /repos/{rid}/blame/{sha}/{path}`: as `git blame --porcelain`, in maximal runs covering every line. */
export const blameSchema = v.object({
  path: v.string(),
  /** The requested commit. */
  commit: oidSchema,
  /** Lines of the file. */
  lines: integerSchema,
  ranges: v.array(blameRangeSchema),
  /** Every commit a range names, by id. */
  commits: v.record(v.string(), commitSchema),
});
export type Blame = v.InferOutput<typeof blameSchema>;

/** One entry of a folder with the newest commit that changed it. */
export const lastCommitEntrySchema = v.object({
  name: v.string(),
  /** Requested path joined with the entry name. */
  path: v.string(),
  commit: commitSchema,
});
export type LastCommitEntry = v.InferOutput<typeof lastCommitEntrySchema>;

/** `GET /repos/{rid}/last-commits/{sha}/{path}`: the entries in the tree route's order, at most 1,000. */
export const lastCommitsSchema = v.object({
  /** The requested path verbatim (empty for the root). */
  path: v.string(),
  entries: v.array(lastCommitEntrySchema),
  /** Whether entries past the first 1,000 were left out. */
  truncated: v.boolean(),
});
export type LastCommits = v.InferOutput<typeof lastCommitsSchema>;
