/**
 * The job reducer (radicle-job 0.6 `Job::from_root` / `op`): the root must start with a
 * `Request` for an existing commit; later `Request`s are ignored; `Run` adds a run for the op
 * author unless that run id exists; `Finished` finishes a known run. Nothing is authorised.
 */
import { RejectedError } from '@forge-httpd/identity';
import type { Nid } from '@forge-httpd/identity';
import type { Oid } from '@forge-httpd/storage';
import type { Change } from '../change.js';
import type { CobFolder } from '../dag/evaluate-changes.js';
import type { FoldEnv } from '../model/fold-env.js';
import { type JobAction, parseJobAction } from './job-action.js';

/** Run status as the API names it. */
export type RunStatus = 'started' | 'succeeded' | 'failed';

/** One run of a node. */
export interface JobRun {
  readonly log: string;
  status: RunStatus;
  timestamp: number;
}

/** The folded job. */
export interface JobState {
  readonly id: Oid;
  readonly commit: Oid;
  /** Node → run id → run, runs in insertion order. */
  readonly runs: Map<Nid, Map<string, JobRun>>;
}

/** Builds the job fold for one evaluation. */
export function jobFolder(env: Pick<FoldEnv, 'hasCommit'>): CobFolder<JobState> {
  return {
    init: (root) => initJob(root, env),
    apply: (job, change) => applyJobActions(job, { actions: change.actions.map(parseJobAction), change }),
  };
}

function initJob(root: Change, env: Pick<FoldEnv, 'hasCommit'>): JobState {
  const [first, ...rest] = root.actions.map(parseJobAction);
  if (first?.type !== 'Request') throw new RejectedError('the first job action must be a request');
  if (!env.hasCommit(first.oid)) throw new RejectedError(`job commit ${first.oid} missing`);
  const job: JobState = { id: root.id, commit: first.oid, runs: new Map() };
  applyJobActions(job, { actions: rest, change: root });
  return job;
}

function applyJobActions(job: JobState, { actions, change }: { actions: readonly JobAction[]; change: Change }): void {
  for (const action of actions) {
    switch (action.type) {
      case 'Request':
        break;
      case 'Run':
        startRun(job, { action, change });
        break;
      case 'Finished':
        finishRun(job, { action, change });
        break;
    }
  }
}

function startRun(job: JobState, { action, change }: { action: Extract<JobAction, { type: 'Run' }>; change: Change }): void {
  const runs = job.runs.get(change.author) ?? new Map<string, JobRun>();
  job.runs.set(change.author, runs);
  if (!runs.has(action.uuid)) runs.set(action.uuid, { log: action.log, status: 'started', timestamp: change.timestamp });
}

function finishRun(job: JobState, { action, change }: { action: Extract<JobAction, { type: 'Finished' }>; change: Change }): void {
  const run = job.runs.get(change.author)?.get(action.uuid);
  if (run === undefined) return;
  run.status = action.reason === 'Succeeded' ? 'succeeded' : 'failed';
  run.timestamp = change.timestamp;
}
