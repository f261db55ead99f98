import { compareUtf8, type Nid } from '@forge-httpd/identity';
import type { Oid } from '@forge-httpd/storage';
import { compareNids } from '../model/compare.js';
import type { JobRun, JobState, RunStatus } from './fold-job.js';

/** One run as the API lists it. */
export interface JobRunView {
  readonly runId: string;
  readonly node: Nid;
  readonly status: RunStatus;
  readonly log: string;
}

/** An evaluated job. */
export interface Job {
  readonly id: Oid;
  readonly commit: Oid;
  /** Flattened per node (key order), then by run id (docs/radicle-httpd.md §5.19). */
  readonly runs: readonly JobRunView[];
}

/** Snapshots a folded job. */
export function viewJob(state: JobState): Job {
  const nodes = [...state.runs.keys()].sort(compareNids);
  const runs = nodes.flatMap((node) =>
    [...(state.runs.get(node) ?? new Map<string, JobRun>()).entries()]
      .sort(([a], [b]) => compareUtf8(a, b))
      .map(([runId, run]) => ({ runId, node, status: run.status, log: run.log })),
  );
  return { id: state.id, commit: state.commit, runs };
}
