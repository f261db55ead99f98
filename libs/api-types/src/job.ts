/**
 * `/repos/{rid}/jobs/{sha}` (docs/api.md 19; docs/radicle-httpd.md §5.19).
 */
import * as v from 'valibot';
import { authorSchema } from './issue.js';
import { oidSchema } from './scalars.js';

/** One run of a job on a node. */
export const jobRunSchema = v.object({
  /** UUID, hyphenated lower case. */
  runId: v.string(),
  node: authorSchema,
  status: v.picklist(['started', 'failed', 'succeeded']),
  /** Where the node logs the run (URL). */
  log: v.string(),
});
export type JobRun = v.InferOutput<typeof jobRunSchema>;

/** A job: automated processing of one commit by one or more nodes. */
export const jobSchema = v.object({
  jobId: oidSchema,
  commit: oidSchema,
  runs: v.array(jobRunSchema),
});
export type Job = v.InferOutput<typeof jobSchema>;
