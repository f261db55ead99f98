import { spawn } from 'node:child_process';
import { GitCommandError } from './errors.js';
import type { GitChildProcess } from './git-child-process.js';
import { gitArguments, gitBinary, gitEnvironment } from './git-command.js';
import { overlayEnvironment } from './overlay-object-directories.js';
import { GitSpawnHelper } from './spawn-helper.js';

/**
 * Starts git on a repository with three pipes, no shell and the isolated environment (plus the
 * repository's overlay object directory, overlay-object-directories.ts): through
 * the spawn helper while one is in use ({@link useGitSpawnHelper}), else directly.
 * When the process is out of file descriptors (EMFILE/ENFILE), Node creates no pipes and
 * reports the failure only by an 'error' event on the next tick, which would be unhandled
 * (and end the server) before a caller could listen: here it is absorbed and the failure
 * thrown at once instead. Through the helper, such failures arrive as the 'error' event.
 * @param gitDir - the repository's git directory
 * @param args - subcommand and arguments (user-derived values after `--end-of-options`)
 * @returns the running process with its pipes
 * @throws GitCommandError when the process could not be set up
 */
export function spawnGit(gitDir: string, args: readonly string[], options: SpawnGitOptions = {}): GitChildProcess {
  const env = { ...gitEnvironment(), ...overlayEnvironment(gitDir) };
  if (options.blockBuffered === true) env['GIT_FLUSH'] = '0';
  return startGit(gitArguments(gitDir, args), env);
}

/** How a repository's git process writes its output. */
export interface SpawnGitOptions {
  /**
   * Output is read to its end, nobody waits for a single record: git writes full blocks.
   * Without it `rev-list`, `log` and their kin write every commit by itself whenever stdout
   * is a pipe (`GIT_FLUSH` unset), and each write wakes the reader. Never for a process that
   * answers requests one at a time over its pipes.
   */
  readonly blockBuffered?: boolean;
}

/**
 * Starts git with exactly `args` and `env` (three pipes, no shell), through the spawn helper
 * while one is in use, else directly; {@link spawnGit} for a repository's readers, the git
 * server pool for `upload-pack` and `archive`.
 * @throws GitCommandError when a direct start could not set up its pipes
 */
export function startGit(args: readonly string[], env: NodeJS.ProcessEnv): GitChildProcess {
  if (helper?.usable === true) return helper.spawn(gitBinary(), args, env);
  const child = spawn(gitBinary(), args, { env, stdio: ['pipe', 'pipe', 'pipe'], shell: false });
  if (child.stdin == null || child.stdout == null || child.stderr == null) {
    child.on('error', () => undefined);
    throw new GitCommandError(`git could not be started (no pipes: out of file descriptors?)`);
  }
  return child as GitChildProcess;
}

let helper: GitSpawnHelper | null = null;
let starting: Promise<GitSpawnHelper | null> | null = null;
let users = 0;

/**
 * Makes this process start its git processes through a small helper process (see
 * {@link GitSpawnHelper}) until every user has released it. A server calls this once at
 * start-up, while it is still small; several servers in one process share one helper.
 * When the helper cannot start, git is started directly and `log` says why.
 * @param log - receives one line when the helper cannot start or ends unexpectedly
 * @returns releases this use (the last release ends the helper)
 */
export async function useGitSpawnHelper(log: (message: string) => void = () => undefined): Promise<() => void> {
  users += 1;
  starting ??= GitSpawnHelper.start(log).then(
    (started) => {
      helper = started;
      return started;
    },
    (error: unknown) => {
      log(`git processes start from the server itself: ${(error as Error).message}`);
      return null;
    },
  );
  await starting;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    users -= 1;
    if (users > 0) return;
    helper?.close();
    helper = null;
    starting = null;
  };
}
