import { mkdir } from 'node:fs/promises';
import { GitProcesses, type GitTarget } from '../processes/git-processes.js';
import { runGit } from '../processes/run-git.js';

/** Identity written to the new repository's config (docs/node-home.md §3: COB authors). */
export interface InitBareOptions {
  readonly userName?: string;
  readonly userEmail?: string;
  /** The processes git runs under (default: its own, for a one-off write). */
  readonly processes?: GitProcesses;
}

/**
 * Creates a bare repository like libgit2's `init --bare`: no template (no hooks, no
 * description), `HEAD` → `refs/heads/master`, and `user.name`/`user.email` in its config.
 * Running it on an existing repository only updates the config.
 * @param gitDir - directory to create (parents are created too)
 * @param options - optional `user.name` and `user.email`
 * @throws ProcessFailedError when git fails
 */
export async function initBareRepository(gitDir: string, options: InitBareOptions = {}): Promise<void> {
  await mkdir(gitDir, { recursive: true });
  const processes = options.processes ?? new GitProcesses();
  await runGit({
    gitDir,
    processes,
    args: ['init', '--quiet', '--bare', '--template=', '--initial-branch=master', '--end-of-options', gitDir],
  });
  if (options.userName !== undefined) await setConfig({ gitDir, processes }, ['user.name', options.userName]);
  if (options.userEmail !== undefined) await setConfig({ gitDir, processes }, ['user.email', options.userEmail]);
}

async function setConfig(at: GitTarget, [key, value]: readonly [string, string]): Promise<void> {
  await runGit({ ...at, args: ['config', '--file', `${at.gitDir}/config`, '--end-of-options', key, value] });
}
