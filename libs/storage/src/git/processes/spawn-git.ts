import { ProcessFailedError } from '@forge-httpd/identity';
import { spawn } from 'node:child_process';
import type { GitChildProcess } from './git-child-process.js';
import { gitArguments, gitBinary, gitEnvironment } from './git-command.js';
import { overlayEnvironment } from '../objects/overlay-object-directories.js';
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
 * @throws ProcessFailedError when the process could not be set up
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
 * @throws ProcessFailedError when a direct start could not set up its pipes
 */
export function startGit(args: readonly string[], env: NodeJS.ProcessEnv): GitChildProcess {
  if (helper?.usable === true) return helper.spawn(gitBinary(), args, env);
  const child = spawn(gitBinary(), args, { env, stdio: ['pipe', 'pipe', 'pipe'], shell: false });
  if (child.stdin == null || child.stdout == null || child.stderr == null) {
    child.on('error', () => undefined);
    throw new ProcessFailedError(`git could not be started (no pipes: out of file descriptors?)`);
  }
  return child as GitChildProcess;
}

let helper: GitSpawnHelper | null = null;
let starting: Promise<GitSpawnHelper | null> | null = null;
let users = 0;
let restartTimer: NodeJS.Timeout | null = null;
let restartDelayMs = 0;
let startedAt = 0;

/** Wait before a new helper replaces one that ended by itself; doubled while helpers keep ending. */
const HELPER_RESTART_MIN_MS = 1_000;
const HELPER_RESTART_MAX_MS = 60_000;

/**
 * Makes this process start its git processes through a small helper process (see
 * {@link GitSpawnHelper}) until every user has released it. A server calls this once at
 * start-up, while it is still small; several servers in one process share one helper.
 * When the helper cannot start, git is started directly and `log` says why. When it ends by
 * itself (killed, crashed), git starts directly for a moment and a new helper takes over: one
 * second later, or later and later (up to a minute) while new helpers keep ending soon.
 * @param log - receives one line when the helper cannot start, ends unexpectedly or is replaced
 * @returns releases this use (the last release ends the helper)
 */
export async function useGitSpawnHelper(log: (message: string) => void = () => undefined): Promise<() => void> {
  users += 1;
  starting ??= startHelper(log, false);
  await starting;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    users -= 1;
    if (users > 0) return;
    if (restartTimer !== null) clearTimeout(restartTimer);
    restartTimer = null;
    helper?.close();
    helper = null;
    starting = null;
  };
}

function startHelper(log: (message: string) => void, replacing: boolean): Promise<GitSpawnHelper | null> {
  return GitSpawnHelper.start(log, () => helperEnded(log)).then(
    (started) => {
      // Every user released it while it started.
      if (users === 0) {
        started.close();
        return null;
      }
      helper = started;
      startedAt = Date.now();
      if (replacing) log(`a new git spawn helper runs (pid ${started.pid ?? '?'})`);
      return started;
    },
    (error: unknown) => {
      log(`git processes start from the server itself: ${(error as Error).message}`);
      return null;
    },
  );
}

function helperEnded(log: (message: string) => void): void {
  helper = null;
  if (users === 0 || restartTimer !== null) return;
  const livedLong = Date.now() - startedAt >= HELPER_RESTART_MAX_MS;
  restartDelayMs = livedLong || restartDelayMs === 0 ? HELPER_RESTART_MIN_MS : Math.min(restartDelayMs * 2, HELPER_RESTART_MAX_MS);
  restartTimer = setTimeout(() => {
    restartTimer = null;
    if (users > 0) starting = startHelper(log, true);
  }, restartDelayMs);
  restartTimer.unref();
}
