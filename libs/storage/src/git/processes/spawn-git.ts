import { ProcessFailedError } from '@forge-httpd/identity';
import { spawn } from 'node:child_process';
import type { GitChildProcess } from './git-child-process.js';
import { findGitBinary } from './git-command.js';
import { GitSpawnHelper } from './spawn-helper.js';

/** Wait before a new helper replaces one that ended by itself; doubled while helpers keep ending. */
const HELPER_RESTART_MIN_MS = 1_000;
const HELPER_RESTART_MAX_MS = 60_000;

/**
 * Starts git processes: through a small helper process (see {@link GitSpawnHelper}) while
 * someone uses one ({@link useHelper}), else directly. One per {@link StorageRuntime}, so every
 * server and repository of a runtime shares one helper.
 */
export class GitSpawner {
  private helper: GitSpawnHelper | null = null;
  private starting: Promise<GitSpawnHelper | null> | null = null;
  private users = 0;
  private restartTimer: NodeJS.Timeout | null = null;
  private restartDelayMs = 0;
  private startedAt = 0;
  private binaryFor: string | undefined;
  private binary = '';

  /**
   * Starts git with exactly `args` and `env` (three pipes, no shell), through the spawn helper
   * while one is in use, else directly.
   * When the process is out of file descriptors (EMFILE/ENFILE), Node creates no pipes and
   * reports the failure only by an 'error' event on the next tick, which would be unhandled
   * (and end the server) before a caller could listen: here it is absorbed and the failure
   * thrown at once instead. Through the helper, such failures arrive as the 'error' event.
   * @throws ProcessFailedError when a direct start could not set up its pipes
   */
  start(args: readonly string[], env: NodeJS.ProcessEnv): GitChildProcess {
    if (this.helper?.usable === true) return this.helper.spawn(this.gitBinary(), args, env);
    const child = spawn(this.gitBinary(), args, { env, stdio: ['pipe', 'pipe', 'pipe'], shell: false });
    if (child.stdin == null || child.stdout == null || child.stderr == null) {
      child.on('error', () => undefined);
      throw new ProcessFailedError(`git could not be started (no pipes: out of file descriptors?)`);
    }
    return child as GitChildProcess;
  }

  /**
   * The absolute path of the `git` that PATH finds ({@link findGitBinary}), looked up again
   * only when PATH changes.
   */
  gitBinary(): string {
    const path = process.env['PATH'] ?? '';
    if (path !== this.binaryFor) {
      this.binaryFor = path;
      this.binary = findGitBinary(path);
    }
    return this.binary;
  }

  /**
   * Starts git processes through a helper process until every user has released it. A server
   * calls this once at start-up, while it is still small. When the helper cannot start, git is
   * started directly and `log` says why. When it ends by itself (killed, crashed), git starts
   * directly for a moment and a new helper takes over: one second later, or later and later
   * (up to a minute) while new helpers keep ending soon.
   * @param log - receives one line when the helper cannot start, ends unexpectedly or is replaced
   * @returns releases this use (the last release ends the helper)
   */
  async useHelper(log: (message: string) => void = () => undefined): Promise<() => void> {
    this.users += 1;
    this.starting ??= this.startHelper(log, false);
    await this.starting;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.release();
    };
  }

  private release(): void {
    this.users -= 1;
    if (this.users > 0) return;
    if (this.restartTimer !== null) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    this.helper?.close();
    this.helper = null;
    this.starting = null;
  }

  private startHelper(log: (message: string) => void, replacing: boolean): Promise<GitSpawnHelper | null> {
    return GitSpawnHelper.start(log, () => this.helperEnded(log)).then(
      (started) => {
        // Every user released it while it started.
        if (this.users === 0) {
          started.close();
          return null;
        }
        this.helper = started;
        this.startedAt = Date.now();
        if (replacing) log(`a new git spawn helper runs (pid ${started.pid ?? '?'})`);
        return started;
      },
      (error: unknown) => {
        log(`git processes start from the server itself: ${(error as Error).message}`);
        return null;
      },
    );
  }

  private helperEnded(log: (message: string) => void): void {
    this.helper = null;
    if (this.users === 0 || this.restartTimer !== null) return;
    const livedLong = Date.now() - this.startedAt >= HELPER_RESTART_MAX_MS;
    this.restartDelayMs = livedLong || this.restartDelayMs === 0 ? HELPER_RESTART_MIN_MS : Math.min(this.restartDelayMs * 2, HELPER_RESTART_MAX_MS);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (this.users > 0) this.starting = this.startHelper(log, true);
    }, this.restartDelayMs);
    this.restartTimer.unref();
  }
}
