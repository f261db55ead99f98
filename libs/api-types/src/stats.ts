/**
 * Statistics (docs/api.md "Tree statistics", operation 14; docs/radicle-httpd.md §5.14; radicle-httpd 0.26).
 */
import * as v from 'valibot';
import { countSchema } from './scalars.js';

/** `GET /repos/{rid}/stats/tree/{sha}`. */
export const treeStatsSchema = v.object({
  /** Commits reachable from the commit, itself included. */
  commits: countSchema,
  /** Number of `refs/heads/*` of the repository (independent of the commit). */
  branches: countSchema,
  /** Distinct (author name, author email) pairs among those commits. */
  contributors: countSchema,
});
export type TreeStats = v.InferOutput<typeof treeStatsSchema>;

/** `GET /repos/{rid}/stats/commits/{sha}`: commits reachable from the commit, itself included. */
export const commitCountStatsSchema = v.object({ commits: countSchema });
export type CommitCountStats = v.InferOutput<typeof commitCountStatsSchema>;

/** `GET /repos/{rid}/diff/{base}/{oid}/stats`: what `git diff --numstat base oid` sums to. */
export const rangeDiffStatsSchema = v.object({
  filesChanged: countSchema,
  insertions: countSchema,
  deletions: countSchema,
});
export type RangeDiffStats = v.InferOutput<typeof rangeDiffStatsSchema>;
