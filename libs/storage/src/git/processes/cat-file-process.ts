import { ProcessFailedError } from '@forge-httpd/identity';
import type { GitChildProcess } from './git-child-process.js';
import { BatchResponseParser, type BatchAnswer } from './batch-response-parser.js';
import { countGitProcess } from './git-process-counts.js';
import type { LiveProcessLimit, StoppableProcess } from '../limits/live-process-limit.js';
import type { GitProcesses } from './git-processes.js';

interface Request {
  readonly line: string;
  readonly content: boolean;
  readonly resolve: (answer: BatchAnswer) => void;
  readonly reject: (error: Error) => void;
  attempts: number;
}

interface Session {
  readonly child: GitChildProcess;
  readonly inFlight: Request[];
  /** Set once the output could not be parsed: nothing more from this process is trusted. */
  broken: boolean;
  /** The end of what git wrote to stderr, for the log line and errors of an unexpected exit. */
  stderr: string;
  /** Request lines of this turn, written together once it ends. */
  readonly outgoing: string[];
  /** Armed while an answer is half received (see {@link DEFAULT_STALL_MS}). */
  stallTimer: NodeJS.Timeout | undefined;
}

const STDERR_KEPT = 1024;

/** Default time without requests after which the process is stopped (restarted lazily). */
export const DEFAULT_IDLE_MS = 30_000;
/**
 * Default time an answer may stay half received with no more output. git announces an
 * object's size before its content and, for some damaged objects, writes fewer bytes than it
 * announced and then waits for the next request: without this bound the read would never end.
 */
const DEFAULT_STALL_MS = 10_000;
const MAX_ATTEMPTS = 2;

/**
 * One long-lived `git cat-file --batch-command` process for a repository (git ≥ 2.36):
 * `info <name>` answers type and size without reading content, `contents <name>` returns
 * the bytes. Started on first use; requests are pipelined and answered in order; a crashed
 * process is restarted and its in-flight requests retried once; stopped when idle or when
 * the runtime's limit of live cat-file processes needs room.
 */
export class CatFileProcess implements StoppableProcess {
  private session: Session | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private lastComplaint = '';

  private readonly idleMs: number;
  private readonly stallMs: number;
  private readonly limit: LiveProcessLimit;
  private readonly log: (message: string) => void;
  private readonly processes: GitProcesses;

  /**
   * @param gitDir - repository
   * @param options - the processes it starts under, idle timeout (default 30 s), stall bound of
   *   a half-received answer (default 10 s), live-process limit (default: the processes'
   *   `catFiles`) and where an unexpected exit of the process is reported (one line per exit)
   */
  constructor(
    private readonly gitDir: string,
    options: { processes: GitProcesses; idleMs?: number; stallMs?: number; limit?: LiveProcessLimit; log?: (message: string) => void },
  ) {
    this.processes = options.processes;
    this.idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
    this.stallMs = options.stallMs ?? DEFAULT_STALL_MS;
    this.limit = options.limit ?? options.processes.catFiles;
    this.log = options.log ?? (() => undefined);
  }

  /**
   * Sends one request. `name` must already be validated (an oid or a checked ref name):
   * it must not contain whitespace.
   * @param name - object name
   * @param content - true for `contents`, false for `info`
   * @returns the answer, `{found: false}` for missing objects
   */
  request(name: string, content: boolean): Promise<BatchAnswer> {
    if (this.closed) return Promise.reject(new ProcessFailedError('repository is closed'));
    if (!/^[^\s]+$/.test(name)) return Promise.reject(new ProcessFailedError('invalid object name'));
    return new Promise<BatchAnswer>((resolve, reject) => {
      this.send({ line: `${content ? 'contents' : 'info'} ${name}\n`, content, resolve, reject, attempts: 0 });
    });
  }

  /** Stops the process and fails requests still waiting. Further requests are rejected. */
  close(): void {
    this.closed = true;
    this.stop(new ProcessFailedError('repository is closed'));
  }

  /** True while the process runs (started and not stopped). */
  isRunning(): boolean {
    return this.session !== undefined;
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
    let session = this.session;
    if (session === undefined) {
      try {
        session = this.start();
      } catch (error) {
        // Also reached from a crash handler (a retry): fail this request, never the server.
        request.reject(error as Error);
        return;
      }
    }
    request.attempts += 1;
    session.inFlight.push(request);
    this.write(session, request.line);
    this.limit.touch(this);
  }

  /**
   * Requests made in the same turn go out in one write: a listing asks for thousands of
   * objects at once, and one write each was a quarter of a first issue listing's time.
   * The order of lines is the order of `inFlight`, so answers still match requests.
   */
  private write(session: Session, line: string): void {
    session.outgoing.push(line);
    if (session.outgoing.length > 1) return;
    process.nextTick(() => session.child.stdin.write(session.outgoing.splice(0).join('')));
  }

  private start(): Session {
    const child = this.processes.spawn(this.gitDir, ['cat-file', '--batch-command']);
    countGitProcess('cat-file', child);
    const session: Session = { child, inFlight: [], broken: false, stderr: '', outgoing: [], stallTimer: undefined };
    const parser = new BatchResponseParser(
      () => session.inFlight[0]?.content ?? false,
      (answer) => this.answer(session, answer),
    );
    child.stdout.on('data', (chunk: Buffer) => this.feed(session, parser, chunk));
    child.stderr.on('data', (chunk: Buffer) => this.complained(session, chunk));
    child.stdin.on('error', () => undefined);
    child.on('error', (error) => this.crashed(session, error.message));
    child.on('close', (code, signal) => this.crashed(session, signal ?? `exit code ${code ?? '?'}`));
    this.session = session;
    return session;
  }

  private feed(session: Session, parser: BatchResponseParser, chunk: Buffer): void {
    if (session.broken) return;
    try {
      parser.push(chunk);
    } catch {
      // Unparsable output means we lost sync with the stream: restart (in-flight requests are retried once).
      this.abandon(session);
      return;
    }
    clearTimeout(session.stallTimer);
    session.stallTimer = undefined;
    if (!parser.isMidAnswer()) return;
    session.stallTimer = setTimeout(() => {
      if (session.broken || session.inFlight.length === 0) return;
      this.log(`git cat-file for ${this.gitDir} sent part of an answer and nothing for ${this.stallMs} ms; later reads use a new process`);
      this.abandon(session);
    }, this.stallMs);
    session.stallTimer.unref();
  }

  /** Trusts nothing more from `session`: a new process answers (in-flight requests are retried once). */
  private abandon(session: Session): void {
    clearTimeout(session.stallTimer);
    session.broken = true;
    this.detach(session);
    session.child.kill('SIGKILL');
  }

  /**
   * git writes nothing to stderr for a missing object, so anything there is a storage problem
   * (a corrupt object, a pack that no longer matches its index). git remembers such packs and
   * objects as bad for the life of the process: later reads go to a new process, so the
   * repository recovers as soon as the files are repaired. Each distinct complaint is logged
   * once (a fault that persists makes every new process repeat it).
   */
  private complained(session: Session, chunk: Buffer): void {
    session.stderr = (session.stderr + chunk.toString('utf8')).slice(-STDERR_KEPT);
    if (session !== this.session) return;
    this.detach(session);
    const complaint = session.stderr.trim().split('\n')[0] ?? '';
    if (complaint !== this.lastComplaint) this.log(`git cat-file for ${this.gitDir} reported: ${complaint}; later reads use a new process`);
    this.lastComplaint = complaint;
    if (session.inFlight.length === 0) this.end(session);
  }

  private answer(session: Session, answer: BatchAnswer): void {
    session.inFlight.shift()?.resolve(answer);
    if (session.inFlight.length > 0) return;
    if (session !== this.session) {
      // A detached process that answered its last request is not needed any more.
      if (!session.broken) this.end(session);
      return;
    }
    this.idleTimer = setTimeout(() => this.stop(), this.idleMs);
    this.idleTimer.unref();
  }

  /** Sends later requests to a new process; `session`'s own requests settle when it exits. */
  private detach(session: Session): void {
    if (this.session !== session) return;
    this.session = undefined;
    this.limit.remove(this);
  }

  private crashed(session: Session, cause: string): void {
    clearTimeout(session.stallTimer);
    // 'error' and 'close' may both arrive; a process we stopped ourselves is already detached;
    // one that never started (no pid) fails its requests, whose errors say why.
    const unexpected = this.session === session && !this.closed && session.child.pid !== undefined;
    this.detach(session);
    const stderr = session.stderr.trim().split('\n').pop() ?? '';
    if (unexpected) {
      const retried = session.inFlight.filter((request) => request.attempts < MAX_ATTEMPTS).length;
      this.log(
        `git cat-file (pid ${session.child.pid ?? '?'}) for ${this.gitDir} exited unexpectedly (${cause}${stderr === '' ? '' : `: ${stderr}`}); ` +
          `restarted on the next read, ${retried} request(s) retried`,
      );
    }
    const orphans = session.inFlight.splice(0);
    for (const request of orphans) {
      if (this.closed || request.attempts >= MAX_ATTEMPTS) {
        request.reject(new ProcessFailedError(`git cat-file process failed (${cause})${stderr === '' ? '' : `: ${stderr}`}`, { stderr }));
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
      request.reject(reason ?? new ProcessFailedError('git cat-file process stopped'));
    }
    this.end(session);
  }

  private end(session: Session): void {
    clearTimeout(session.stallTimer);
    session.child.stdin.end();
    session.child.kill('SIGTERM');
  }
}
