import { BusyError, ProcessFailedError } from '@forge-httpd/identity';
import { PassThrough, type Readable } from 'node:stream';
import type { GitChildProcess } from '../git/processes/git-child-process.js';
import { gitEnvironment } from '../git/processes/git-command.js';
import { countGitProcess } from '../git/processes/git-process-counts.js';
import type { GitProcesses } from '../git/processes/git-processes.js';
import { runInBackground } from '../git/processes/process-priority.js';

/** Bounds of a {@link GitServerPool}. */
export interface GitServerPoolOptions {
  /** Most git server processes running at once; one more is refused (not queued). */
  readonly maxProcesses: number;
  /** A process still running after this long is killed and its output stream errors. */
  readonly timeoutMs: number;
  /** Receives one line per failed, timed-out or killed process (with git's stderr). */
  readonly log?: (message: string) => void;
  /** The runtime's processes: they start git (through the spawn helper when in use) and know its overlays. */
  readonly processes: GitProcesses;
}

/** One git server process to start. */
export interface GitServerInvocation {
  /** Arguments after `git` (configuration, subcommand, options); never user text as an option. */
  readonly args: readonly string[];
  /** Variables added to git's isolated environment (`GIT_PROTOCOL`, `GIT_NAMESPACE`). */
  readonly env?: Readonly<Record<string, string>>;
  /** Streamed to git's stdin (a request body); stdin is closed when absent. */
  readonly stdin?: Readable;
  /**
   * True when a non-zero exit must make the output stream error, so a truncated archive never
   * looks complete; false for upload-pack, which reports its errors inside the protocol.
   */
  readonly failOnExit: boolean;
}

const STDERR_LIMIT = 4096;

/**
 * Runs git's server side (`upload-pack`, `archive`) with bounds: at most `maxProcesses` at
 * once (past it {@link BusyError}, never a queue that would hold clients forever),
 * a time limit per process, and the process killed as soon as its output stream is destroyed
 * (the client hung up). These processes never take a slot of the short-lived spawn limiter
 * used by the JSON routes, so a slow clone cannot delay them.
 */
export class GitServerPool {
  private readonly children = new Set<GitChildProcess>();

  constructor(private readonly options: GitServerPoolOptions) {
    if (!Number.isInteger(options.maxProcesses) || options.maxProcesses < 1) throw new Error('maxProcesses must be >= 1');
  }

  /** The processes this pool starts git under. */
  get processes(): GitProcesses {
    return this.options.processes;
  }

  /** Most processes running at once (past it {@link start} refuses). */
  get capacity(): number {
    return this.options.maxProcesses;
  }

  /** Number of git server processes running now. */
  get running(): number {
    return this.children.size;
  }

  /**
   * Starts one process and returns its stdout as a stream (backpressure reaches git).
   * @param invocation - arguments, extra environment, stdin and exit policy
   * @returns stdout; destroying it kills the process
   * @throws BusyError when every slot is taken
   */
  start(invocation: GitServerInvocation): Readable {
    if (this.children.size >= this.options.maxProcesses) throw new BusyError('too many git processes running');
    const child = this.options.processes.spawner.start(invocation.args, { ...gitEnvironment(), ...invocation.env });
    this.children.add(child);
    countGitProcess('server', child);
    const output = new PassThrough();
    const command = invocation.args.find((arg) => !arg.startsWith('-') && !arg.includes('=')) ?? 'git';
    const state = { stderr: '', timedOut: false };
    runInBackground(child);
    const timer = setTimeout(() => {
      state.timedOut = true;
      child.kill('SIGKILL');
    }, this.options.timeoutMs);
    timer.unref();
    child.stderr.on('data', (chunk: Buffer) => {
      if (state.stderr.length < STDERR_LIMIT) state.stderr += chunk.toString('utf8').slice(0, STDERR_LIMIT);
    });
    child.stdout.pipe(output, { end: false });
    pipeStdin(child, invocation.stdin);
    // The consumer went away (client hung up): nobody reads the rest, stop producing it.
    output.on('close', () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    child.on('error', (error) => output.destroy(error));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      this.children.delete(child);
      this.finish({ output, invocation, command, code, signal, ...state });
    });
    return output;
  }

  /** Kills every running process (server shutdown). */
  close(): void {
    for (const child of this.children) child.kill('SIGKILL');
  }

  private finish(end: {
    output: PassThrough;
    invocation: GitServerInvocation;
    command: string;
    code: number | null;
    signal: NodeJS.Signals | null;
    stderr: string;
    timedOut: boolean;
  }): void {
    const { output, command, code, signal, stderr } = end;
    if (output.destroyed) return;
    if (end.timedOut) {
      this.options.log?.(`git ${command} killed after ${this.options.timeoutMs} ms`);
      output.destroy(new ProcessFailedError(`git ${command} killed after ${this.options.timeoutMs} ms`));
      return;
    }
    if (code !== 0) this.options.log?.(`git ${command} exited with ${code ?? signal ?? '?'}: ${stderr.trim()}`);
    // A signal other than ours (input failed, killed from outside) also means incomplete output.
    if (code !== 0 && (end.invocation.failOnExit || signal !== null))
      output.destroy(new ProcessFailedError(`git ${command} exited with ${code ?? signal ?? '?'}: ${stderr.trim()}`, { exitCode: code, stderr }));
    else output.end();
  }
}

function pipeStdin(child: GitChildProcess, input: Readable | undefined): void {
  // EPIPE when git exits before reading everything; the exit is reported through 'close'.
  child.stdin.on('error', () => undefined);
  if (input === undefined) {
    child.stdin.end();
    return;
  }
  input.on('error', () => child.kill('SIGKILL'));
  input.pipe(child.stdin);
}
