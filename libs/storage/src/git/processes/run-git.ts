import { ProcessFailedError } from '@forge-httpd/identity';
import { countGitProcess } from './git-process-counts.js';
import { runInBackground } from './process-priority.js';
import type { GitTarget } from './git-processes.js';

const STDERR_LIMIT = 4096;
const DEFAULT_TIMEOUT_MS = 60_000;

/** One short-lived git invocation: the repository, the processes it runs under, and the command. */
export interface GitInvocation extends GitTarget {
  /** Subcommand and arguments; user-derived values must follow `--end-of-options`. */
  readonly args: readonly string[];
  /** Bytes written to stdin (stdin is closed either way). */
  readonly input?: string | Buffer;
  /** Exit codes that are not failures (default `[0]`). */
  readonly okExitCodes?: readonly number[];
  /** Kill the process after this long (default 60 s). */
  readonly timeoutMs?: number;
  /**
   * The error a process killed at `timeoutMs` rejects with (default a ProcessFailedError): a
   * search that ran out of time is a busy server to its caller, not a failure.
   */
  readonly onTimeout?: () => Error;
  /**
   * Work nobody waits for (index builds): git runs at a lower CPU priority, so on a busy
   * machine the processes answering requests get the cores first.
   */
  readonly background?: boolean;
}

/**
 * Runs git, handing each stdout chunk to `onChunk`; returning `'stop'` kills the process
 * (used for early exit from walks and for byte caps). Waits for a slot of the processes'
 * `commands` first.
 * @param invocation - repository, arguments, stdin and accepted exit codes
 * @param onChunk - receives stdout in order
 * @returns the exit code (or -1 when stopped by `onChunk`)
 * @throws ProcessFailedError on spawn failure, timeout or an unexpected exit code
 */
export async function streamGit(invocation: GitInvocation, onChunk: (chunk: Buffer) => 'stop' | void): Promise<number> {
  return invocation.processes.commands.run(() => spawnAndWait(invocation, onChunk));
}

/** Result of {@link runGit}. */
export interface GitOutput {
  readonly stdout: Buffer;
  readonly exitCode: number;
  /** True when output exceeded `maxBytes` and the process was killed. */
  readonly truncated: boolean;
}

/**
 * Runs git and collects stdout, optionally capped at `maxBytes` (the process is killed as
 * soon as the cap is exceeded and the output cut at the cap).
 * @param invocation - see {@link GitInvocation}, plus an optional byte cap
 * @returns stdout, exit code and whether the output was truncated
 * @throws ProcessFailedError on failure (see {@link streamGit})
 */
export async function runGit(invocation: GitInvocation & { readonly maxBytes?: number }): Promise<GitOutput> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  const max = invocation.maxBytes ?? Number.POSITIVE_INFINITY;
  const exitCode = await streamGit(invocation, (chunk) => {
    chunks.push(chunk);
    size += chunk.length;
    if (size <= max) return undefined;
    truncated = true;
    return 'stop';
  });
  const stdout = Buffer.concat(chunks);
  return { stdout: truncated ? stdout.subarray(0, max) : stdout, exitCode, truncated };
}

function spawnAndWait(invocation: GitInvocation, onChunk: (chunk: Buffer) => 'stop' | void): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    // Its stdin is written at once and its stdout read to the end: full blocks, not a write
    // per commit, so the reader wakes once per block rather than once per line.
    const child = invocation.processes.spawn(invocation.gitDir, invocation.args, { blockBuffered: true });
    countGitProcess('command', child);
    if (invocation.background === true) runInBackground(child);
    const state = { stopped: false, timedOut: false, stderr: '' };
    const timer = setTimeout(() => {
      state.timedOut = true;
      child.kill('SIGKILL');
    }, invocation.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      if (state.stopped || onChunk(chunk) !== 'stop') return;
      state.stopped = true;
      child.stdout.destroy();
      child.kill('SIGTERM');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (state.stderr.length < STDERR_LIMIT) state.stderr += chunk.toString('utf8').slice(0, STDERR_LIMIT);
    });
    // EPIPE when git exits before reading stdin is reported through 'close' instead.
    child.stdin.on('error', () => undefined);
    child.stdin.end(invocation.input ?? '');
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new ProcessFailedError(`git could not be started: ${error.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const outcome = settle({ invocation, code, ...state });
      if (typeof outcome === 'number') resolve(outcome);
      else reject(outcome);
    });
  });
}

interface Outcome {
  readonly invocation: GitInvocation;
  readonly code: number | null;
  readonly stopped: boolean;
  readonly timedOut: boolean;
  readonly stderr: string;
}

/** The exit code to resolve with (-1 when stopped on purpose), or the error to reject with. */
function settle(outcome: Outcome): number | Error {
  const { invocation, code, stopped, timedOut, stderr } = outcome;
  if (stopped) return -1;
  if (timedOut && invocation.onTimeout !== undefined) return invocation.onTimeout();
  const ok = invocation.okExitCodes ?? [0];
  if (code !== null && ok.includes(code) && !timedOut) return code;
  const what = timedOut ? 'timed out' : `exited with ${code ?? 'a signal'}`;
  return new ProcessFailedError(`git ${invocation.args[0] ?? ''} ${what}: ${stderr.trim()}`, { exitCode: code, stderr });
}
