/**
 * Wire types of commits (api.md "Commit", operations 9–12; behaviour.md B §4.3, §5.9–5.12).
 * Keys are listed in the order the server writes them.
 */
import type { CommitDiff, DiffFiles, RangeDiff } from './diff.js';

/** A commit (B §4.3). `summary`/`description` follow behaviour Part A. */
export interface Commit {
  id: string;
  author: { name: string; email: string };
  summary: string;
  description: string;
  /** Parent ids; empty for a root commit. */
  parents: string[];
  /** `time`: committer time in seconds since the epoch (timezone dropped). */
  committer: { name: string; email: string; time: number };
}

/** `GET /repos/{rid}/commits/{sha}` (B §5.10). */
export interface CommitDetail {
  commit: Commit;
  /** The commit against its first parent (root: against the empty tree). */
  diff: CommitDiff;
  files: DiffFiles;
  /** `refs/heads/*` then `refs/remotes/*` names (storage top level) that contain the commit. */
  branches: string[];
}

/** `GET /repos/{rid}/diff/{base}/{oid}` (B §5.11). */
export interface RangeDiffResponse {
  diff: RangeDiff;
  files: DiffFiles;
  /** From `oid` back, newest first, stopping before `base`. */
  commits: Commit[];
}

/** `GET /repos/{rid}/activity` (B §5.12): committer times of the last 52 weeks, walk order. */
export interface Activity {
  activity: number[];
}
