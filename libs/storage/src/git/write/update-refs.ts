import type { Oid } from '../objects/oid.js';
import { GitProcesses } from '../processes/git-processes.js';
import { runGit } from '../processes/run-git.js';

/** Point `name` directly at an object (the ref itself is replaced even if it was symbolic). */
export interface DirectRefUpdate {
  readonly name: string;
  readonly oid: Oid;
}

/** Make `name` a symbolic ref to `symbolicTarget` (e.g. `HEAD` → `refs/heads/main`). */
export interface SymbolicRefUpdate {
  readonly name: string;
  readonly symbolicTarget: string;
}

/** Delete `name` (no error when it does not exist). */
export interface RefDeletion {
  readonly name: string;
  readonly delete: true;
}

/** One reference change for {@link updateRefs}. */
export type RefUpdate = DirectRefUpdate | SymbolicRefUpdate | RefDeletion;

/**
 * Applies reference changes: direct updates and deletions in one atomic
 * `git update-ref --no-deref --stdin -z` transaction, then each symbolic ref through
 * `git symbolic-ref` (update-ref cannot write symbolic refs in git 2.39).
 * Git validates the names (`check-ref-format`) and rejects bad ones.
 * @param gitDir - the repository's git directory
 * @param updates - changes, applied direct-first then symbolic in order
 * @param processes - the processes git runs under (default: its own, for a one-off write)
 * @throws ProcessFailedError when git rejects a name or the transaction fails
 */
export async function updateRefs(gitDir: string, updates: readonly RefUpdate[], processes: GitProcesses = new GitProcesses()): Promise<void> {
  let transaction = '';
  for (const update of updates) {
    if ('oid' in update) transaction += `update ${update.name}\0${update.oid}\0\0`;
    else if ('delete' in update) transaction += `delete ${update.name}\0\0`;
  }
  if (transaction !== '') {
    await runGit({ gitDir, processes, args: ['update-ref', '--no-deref', '--stdin', '-z'], input: transaction });
  }
  for (const update of updates) {
    if (!('symbolicTarget' in update)) continue;
    await runGit({
      gitDir,
      processes,
      args: ['symbolic-ref', '--end-of-options', update.name, update.symbolicTarget],
    });
  }
}
