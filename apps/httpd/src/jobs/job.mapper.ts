import type { Job as WireJob } from '@forge-httpd/api-types';
import type { Job } from '@forge-httpd/cob';
import type { AliasLookup } from '../cobs/cob-store.service.js';
import { toAuthor } from '../cobs/comment.mapper.js';

/** `{jobId, commit, runs: [{runId, node, status, log}]}` (docs/radicle-httpd.md §5.19). */
export function toJob(job: Job, aliasOf: AliasLookup): WireJob {
  return {
    jobId: job.id,
    commit: job.commit,
    runs: job.runs.map((run) => ({ runId: run.runId, node: toAuthor(run.node, aliasOf), status: run.status, log: run.log })),
  };
}
