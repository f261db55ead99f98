import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { BatchResponseParser, type BatchAnswer } from './batch-response-parser.js';
import { GitCommandError } from './errors.js';
import { GIT_BINARY, gitArguments, gitEnvironment } from './git-command.js';
import { countGitProcess } from './git-process-counts.js';
import { catFileProcessLimit, type LiveProcessLimit, type StoppableProcess } from './live-process-limit.js';

interface Request {
  readonly line: string;
  readonly content: boolean;
  readonly resolve: (answer: BatchAnswer) => void;
  readonly reject: (error: Error) => void;
  attempts: number;
}

interface Session {
  readonly child: ChildProcessWithoutNullStreams;
  readonly inFlight: Request[];
  /** Set once the output could not be parsed: nothing more from this process is trusted. */
  broken: boolean;
}

/** Default time without requests after which the process is stopped (restarted lazily). */
export const DEFAULT_IDLE_MS = 30_000;
const MAX_ATTEMPTS = 2;

/**
 * One long-lived `git cat-file --batch-command` process for a repository (git ≥ 2.36):
 * `info <name>` answers type and size without reading content, `contents <name>` returns
 * the bytes. Started on first use; requests are pipelined and answered in order; a crashed
 * process is restarted and its in-flight requests retried once; stopped when idle or when
 * the process-wide {@link catFileProcessLimit} needs room.
 */
export class CatFileProcess implements StoppableProcess {
  private session: Session | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;

  private readonly idleMs: number;
  private readonly limit: LiveProcessLimit;

  /**
   * @param gitDir - repository
   * @param options - idle timeout (default 30 s) and live-process limit (default process-wide)
   */
  constructor(
    private readonly gitDir: string,
    options: { idleMs?: number; limit?: LiveProcessLimit } = {},
  ) {
    this.idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
    this.limit = options.limit ?? catFileProcessLimit;
  }

  /**
   * Sends one request. `name` must already be validated (an oid or a checked ref name):
   * it must not contain whitespace.
   * @param name - object name
   * @param content - true for `contents`, false for `info`
   * @returns the answer, `{found: false}` for missing objects
   */
  request(name: string, content: boolean): Promise<BatchAnswer> {
    if (this.closed) return Promise.reject(new GitCommandError('repository is closed'));
    if (!/^[^\s]+$/.test(name)) return Promise.reject(new GitCommandError('invalid object name'));
    return new Promise<BatchAnswer>((resolve, reject) => {
      this.send({ line: `${content ? 'contents' : 'info'} ${name}\n`, content, resolve, reject, attempts: 0 });
    });
  }

  /** Stops the process and fails requests still waiting. Further requests are rejected. */
  close(): void {
    this.closed = true;
    this.stop(new GitCommandError('repository is closed'));
  }

  /** True while requests are waiting for answers. */
  isBusy(): boolean {
    return (this.session?.inFlight.length ?? 0) > 0;
  }

  /** Stops the process if it has nothing in flight; the next request restarts it. */
  stopIdle(): void {
    if (!this.isBusy()) this.stop();
  }

  /** The running process id, if any (for diagnostics and crash tests). */
  get pid(): number | undefined {
    return this.session?.child.pid;
  }

  private send(request: Request): void {
    clearTimeout(this.idleTimer);
    const session = this.session ?? this.start();
    request.attempts += 1;
    session.inFlight.push(request);
    session.child.stdin.write(request.line);
    this.limit.touch(this);
  }

  private start(): Session {
    const child = spawn(GIT_BINARY, gitArguments(this.gitDir, ['cat-file', '--batch-command']), {
      env: gitEnvironment(),
      stdio: ['pipe', 'pipe', 'pipe'],
      shell: false,
    });
    countGitProcess('cat-file', child);
    const session: Session = { child, inFlight: [], broken: false };
    const parser = new BatchResponseParser(
      () => session.inFlight[0]?.content ?? false,
      (answer) => this.answer(session, answer),
    );
    child.stdout.on('data', (chunk: Buffer) => this.feed(session, parser, chunk));
    child.stderr.resume();
    child.stdin.on('error', () => undefined);
    child.on('error', () => this.crashed(session));
    child.on('close', () => this.crashed(session));
    this.session = session;
    return session;
  }

  private feed(session: Session, parser: BatchResponseParser, chunk: Buffer): void {
    if (session.broken) return;
    try {
      parser.push(chunk);
    } catch {
      // Unparsable output means we lost sync with the stream: restart (in-flight requests are retried once).
      session.broken = true;
      this.detach(session);
      session.child.kill('SIGKILL');
    }
  }

  private answer(session: Session, answer: BatchAnswer): void {
    session.inFlight.shift()?.resolve(answer);
    if (session.inFlight.length > 0 || session !== this.session) return;
    this.idleTimer = setTimeout(() => this.stop(), this.idleMs);
    this.idleTimer.unref();
  }

  /** Sends later requests to a new process; `session`'s own requests settle when it exits. */
  private detach(session: Session): void {
    if (this.session !== session) return;
    this.session = undefined;
    this.limit.remove(this);
  }

  private crashed(session: Session): void {
    this.detach(session);
    const orphans = session.inFlight.splice(0);
    for (const request of orphans) {
      if (this.closed || request.attempts >= MAX_ATTEMPTS) {
        request.reject(new GitCommandError('git cat-file process failed'));
      } else {
        this.send(request);
      }
    }
  }

  private stop(reason?: Error): void {
    clearTimeout(this.idleTimer);
    const session = this.session;
    if (session === undefined) return;
    this.session = undefined;
    this.limit.remove(this);
    for (const request of session.inFlight.splice(0)) {
      request.reject(reason ?? new GitCommandError('git cat-file process stopped'));
    }
    session.child.stdin.end();
    session.child.kill('SIGTERM');
  }
}
