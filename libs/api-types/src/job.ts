/**
 * Wire types of `/repos/{rid}/jobs/{sha}` (api.md 19; behaviour.md B §5.19).
 */
import type { Author } from './issue.js';

/** One run of a job on a node. */
export interface JobRun {
  /** UUID, hyphenated lower case. */
  runId: string;
  node: Author;
  status: 'started' | 'failed' | 'succeeded';
  /** Where the node logs the run (URL). */
  log: string;
}

/** A job: automated processing of one commit by one or more nodes. */
export interface Job {
  jobId: string;
  commit: string;
  runs: JobRun[];
}
