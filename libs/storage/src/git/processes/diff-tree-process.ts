/**
 * One long-lived `git diff-tree --stdin` per repository for the patches of commit and diff
 * pages. A process spawned per diff costs more before git computes anything than this one
 * takes to compute a typical commit's patch. Each request is the line `<to> <from>` (a commit
 * and the commit it is compared with, given as its only parent), followed by a line git does
 * not parse as an object id and therefore echoes back and flushes: `#<nonce>-<n>`, with a
 * random nonce per process, marks the end of the answer (repository content cannot forge it).
 * The answer is `<to>\0` then exactly the bytes `git diff-tree <options> <from> <to>` prints.
 *
 * Anything unusual — no or another header (an error, an empty diff, a tree instead of a
 * commit), output past the byte cap, a crash — makes `diff()` return null and the caller
 * spawn git as before; a process whose output was cut is stopped, as is one whose caller
 * abandons an answer once it has seen its raw records (`onRawRecords`, exact-moves.ts).
 * Requests run one at a time.
 */
import { randomBytes } from 'node:crypto';
import type { GitChildProcess } from './git-child-process.js';
import { countGitProcess } from './git-process-counts.js';
import type { StoppableProcess } from '../limits/live-process-limit.js';
import { isOid, type Oid } from '../objects/oid.js';
import { RawRecordBlobIds } from './raw-record-blob-ids.js';
import type { GitProcesses } from './git-processes.js';

interface Session {
  readonly child: GitChildProcess;
  readonly nonce: string;
  sequence: number;
}

interface Pending {
  readonly marker: Buffer;
  readonly maxBytes: number;
  /** The `<to>\0` header before git's own output. */
  readonly header: Buffer;
  readonly chunks: Buffer[];
  size: number;
  /** Reads the raw records for the listeners until they end (then undefined). */
  rawRecords: { readonly reader: RawRecordBlobIds; readonly listeners: DiffListeners } | undefined;
  readonly done: (output: Buffer | null) => void;
}

/** What a caller of {@link DiffTreeProcess.diff} is told while git works. */
export interface DiffListeners {
  readonly onBlobIds?: (ids: readonly Oid[]) => void;
  readonly onQueued?: () => void;
  /**
   * Told the whole raw section (every record and the empty field that ends them) as soon as
   * git has written it, after `onBlobIds`. Answering true abandons the diff: the process is
   * stopped at once (the next request starts another) and `diff` answers null.
   */
  readonly onRawRecords?: (records: Buffer) => boolean;
}

/** A persistent diff-tree for one repository. */
export class DiffTreeProcess implements StoppableProcess {
  private session: Session | undefined;
  private pending: Pending | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;

  /**
   * @param gitDir - repository
   * @param options - the processes it starts under (their `diffTrees` bound the live ones), the
   *   diff-tree options after `diff-tree` (`--stdin` is added) and the idle timeout
   */
  constructor(
    private readonly gitDir: string,
    private readonly options: { processes: GitProcesses; args: readonly string[]; idleMs: number },
  ) {}

  /**
   * The patch between two commits, or null when the caller should spawn git instead.
   * @param range - `from` (compared as the only parent) and `to`, both commit ids
   * @param maxBytes - answers longer than this are abandoned (null)
   * @param listeners - `onBlobIds`: told the blob ids of the raw records as soon as git has
   *   written them all, before the patches (at most once; see {@link RawRecordBlobIds});
   *   `onQueued`: told at once when the process runs, else once it has started and has the
   *   request in its input
   */
  diff(range: { from: Oid; to: Oid }, maxBytes: number, listeners: DiffListeners = {}): Promise<Buffer | null> {
    if (this.closed || !isOid(range.from) || !isOid(range.to)) return Promise.resolve(null);
    // A running process needs nothing more from the caller's thread; a starting one does.
    const running = this.session !== undefined;
    const run = this.queue.then(() => this.run(range, maxBytes, running ? { ...listeners, onQueued: undefined } : listeners));
    this.queue = run.catch(() => undefined);
    if (running) tellQueued(listeners.onQueued);
    return run;
  }

  isBusy(): boolean {
    return this.pending !== undefined;
  }

  stopIdle(): void {
    if (!this.isBusy()) this.stop();
  }

  /** Stops the process; later requests answer null. */
  close(): void {
    this.closed = true;
    this.stop();
  }

  private run(range: { from: Oid; to: Oid }, maxBytes: number, { onBlobIds, onQueued, onRawRecords }: DiffListeners): Promise<Buffer | null> {
    if (this.closed) return Promise.resolve(null);
    const session = this.session ?? this.start();
    if (session === undefined) return Promise.resolve(null);
    this.options.processes.diffTrees.touch(this);
    clearTimeout(this.idleTimer);
    session.sequence += 1;
    const markerText = `#${session.nonce}-${session.sequence}\n`;
    const header = Buffer.from(`${range.to}\0`, 'latin1');
    return new Promise<Buffer | null>((resolve) => {
      this.pending = {
        marker: Buffer.from(markerText, 'latin1'),
        maxBytes: maxBytes + header.length + markerText.length,
        header,
        chunks: [],
        size: 0,
        rawRecords:
          onBlobIds === undefined && onRawRecords === undefined
            ? undefined
            : { reader: new RawRecordBlobIds(header.length), listeners: { onBlobIds, onRawRecords } },
        done: (output) => {
          this.pending = undefined;
          this.idleTimer = setTimeout(() => this.stop(), this.options.idleMs);
          this.idleTimer.unref();
          if (output === null || output.length < header.length || !output.subarray(0, header.length).equals(header)) resolve(null);
          else resolve(output.subarray(header.length));
        },
      };
      session.child.stdin.write(`${range.to} ${range.from}\n${markerText}`, () => tellQueued(onQueued));
    });
  }

  private start(): Session | undefined {
    let child: GitChildProcess;
    try {
      child = this.options.processes.spawn(this.gitDir, ['diff-tree', '--stdin', ...this.options.args]);
    } catch {
      return undefined;
    }
    // Counted with the other long-lived per-repository readers.
    countGitProcess('cat-file', child);
    const session: Session = { child, nonce: randomBytes(16).toString('hex'), sequence: 0 };
    this.session = session;
    child.stdin.on('error', () => undefined);
    child.stderr.on('data', () => undefined);
    child.on('error', () => undefined);
    child.stdout.on('data', (chunk: Buffer) => this.receive(session, chunk));
    child.on('close', () => {
      if (this.session === session) this.session = undefined;
      this.options.processes.diffTrees.remove(this);
      this.pending?.done(null);
    });
    return session;
  }

  private receive(session: Session, chunk: Buffer): void {
    const pending = this.pending;
    if (pending === undefined || this.session !== session) {
      // Output nobody asked for: the process is out of step, stop trusting it.
      this.stop();
      return;
    }
    pending.chunks.push(chunk);
    pending.size += chunk.length;
    if (pending.size > pending.maxBytes) {
      this.stop();
      return;
    }
    this.readRawRecords(pending, chunk);
    // Abandoned by its caller (onRawRecords): the process is stopped.
    if (this.pending !== pending) return;
    const { marker } = pending;
    if (pending.size < marker.length) return;
    const tail = chunk.length >= marker.length ? chunk : Buffer.concat(pending.chunks).subarray(-marker.length);
    if (!tail.subarray(tail.length - marker.length).equals(marker)) return;
    const output = Buffer.concat(pending.chunks, pending.size);
    pending.done(output.subarray(0, output.length - marker.length));
  }

  private readRawRecords(pending: Pending, chunk: Buffer): void {
    const rawRecords = pending.rawRecords;
    if (rawRecords === undefined) return;
    const { reader, listeners } = rawRecords;
    const ids = reader.push(chunk);
    const end = reader.recordsEnd;
    if (ids === null || end === null) return;
    pending.rawRecords = undefined;
    let abandon = false;
    try {
      // Early reads need no checked header: a wrong one makes the answer null when it is
      // complete, and the reads were only wasted. Abandoning needs it checked first.
      listeners.onBlobIds?.(ids);
      if (listeners.onRawRecords !== undefined) {
        const output = Buffer.concat(pending.chunks, pending.size);
        if (output.subarray(0, pending.header.length).equals(pending.header)) abandon = listeners.onRawRecords(output.subarray(pending.header.length, end));
      }
    } catch {
      // The caller's early reads are an optimisation: its failure must not end this answer.
    }
    if (abandon) this.stop();
  }

  private stop(): void {
    clearTimeout(this.idleTimer);
    const session = this.session;
    this.session = undefined;
    this.options.processes.diffTrees.remove(this);
    this.pending?.done(null);
    if (session !== undefined) {
      session.child.stdin.destroy();
      session.child.kill('SIGKILL');
    }
  }
}

/** Calls a caller's `onQueued`; its failure must not reach the stream (an uncaught exception) or the caller of `diff`. */
function tellQueued(onQueued: (() => void) | undefined): void {
  try {
    onQueued?.();
  } catch {
    // The caller's overlap is an optimisation: its failure ends nothing here.
  }
}
