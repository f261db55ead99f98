/**
 * Job COB operations (radicle-job 0.6): request a job for a commit, then runs per node.
 */
import type { Oid } from '@forge-httpd/storage';
import { type CobWriteContext, createCob, updateCob } from './write-cob.js';

/** Creates a job for an existing commit; returns the job id. */
export function createJob(context: CobWriteContext, args: { commit: Oid }): Promise<Oid> {
  // `Request` names its commit as a related parent, like radicle-job's `CobAction::parents`.
  return createCob(context, { kind: 'job', actions: [{ Request: { oid: args.commit } }], message: 'Request job', related: [args.commit] });
}

/** Starts a run of the writer's node (the run's node is the change author). */
export function startJobRun(context: CobWriteContext, args: { job: Oid; runId: string; log: string }): Promise<Oid> {
  return updateCob(context, { kind: 'job', id: args.job, actions: [{ Run: { uuid: args.runId, log: args.log } }], message: 'Run node job' });
}

/** Finishes a run of the writer's node. */
export function finishJobRun(context: CobWriteContext, args: { job: Oid; runId: string; succeeded: boolean }): Promise<Oid> {
  const action = { Finished: { uuid: args.runId, reason: args.succeeded ? 'Succeeded' : 'Failed' } };
  return updateCob(context, { kind: 'job', id: args.job, actions: [action], message: 'Finished node job' });
}
