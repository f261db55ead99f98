import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { Writable } from 'node:stream';
import type { GitChildProcess } from './git-child-process.js';

/**
 * A git process started by the spawn helper, seen from the server: the same events and
 * streams as a `ChildProcess` with three pipes. stdout and stderr are the server's ends of
 * the stdio connections themselves; stdin is held back (see {@link GatedStdin}).
 */
export class HelperGitChild extends EventEmitter implements GitChildProcess {
  pid: number | undefined = undefined;
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  readonly stdin: GatedStdin;
  readonly stdout: Socket;
  readonly stderr: Socket;
  private exited = false;
  private closed = false;
  private openOutputs = 2;

  /**
   * @param sockets - the server's ends of the stdin, stdout and stderr connections (headers written)
   * @param sendKill - forwards a signal to the helper
   */
  constructor(
    private readonly sockets: readonly [Socket, Socket, Socket],
    private readonly sendKill: (signal: NodeJS.Signals) => void,
  ) {
    super();
    const [stdin, stdout, stderr] = sockets;
    this.stdin = new GatedStdin(stdin);
    this.stdout = stdout;
    this.stderr = stderr;
    for (const output of [stdout, stderr]) {
      output.once('close', () => {
        this.openOutputs -= 1;
        this.maybeClose();
      });
    }
    // A connection that fails before git runs (helper gone, out of descriptors) fails the spawn.
    for (const socket of sockets) {
      socket.on('error', (error: NodeJS.ErrnoException) => {
        if (this.pid === undefined && !this.exited) this.failed(error.message, error.code);
      });
    }
  }

  kill(signal: NodeJS.Signals = 'SIGTERM'): boolean {
    if (this.exited) return false;
    this.sendKill(signal);
    return true;
  }

  /** The helper started git: stdin may flow now. */
  spawned(pid: number): void {
    if (this.exited) return;
    this.pid = pid;
    this.stdin.open();
    this.emit('spawn');
  }

  /** git exited (or was never started because it was killed first). */
  ended(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.exited) return;
    this.exited = true;
    this.exitCode = code;
    this.signalCode = signal;
    // Never started: nobody will write the other ends of the connections.
    if (this.pid === undefined) this.destroySockets();
    this.emit('exit', code, signal);
    this.flushUnreadOutputs();
    this.maybeClose();
  }

  /** git could not be started, or the helper went away: like Node's spawn errors. */
  failed(message: string, code: string | undefined): void {
    if (this.exited) return;
    this.exited = true;
    this.destroySockets();
    this.emit('error', Object.assign(new Error(message), { code }));
    this.maybeClose();
  }

  /**
   * Output its reader left (unpiped when a client hung up: paused, nobody listening) is read to
   * its end and dropped once git has exited: otherwise the connection never ends, 'close'
   * never comes, and whoever waits for it (a process pool's slot) waits forever. Output never
   * read yet is kept for a reader that comes after the exit.
   */
  private flushUnreadOutputs(): void {
    for (const output of [this.stdout, this.stderr]) {
      const abandoned = output.readableFlowing === false && output.listenerCount('data') === 0 && output.listenerCount('readable') === 0;
      if (output.readable && abandoned) output.resume();
    }
  }

  private destroySockets(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  private maybeClose(): void {
    if (this.closed || !this.exited || this.openOutputs > 0) return;
    this.closed = true;
    this.sockets[0].destroy();
    this.emit('close', this.exitCode, this.signalCode);
  }
}

/**
 * git's stdin as the caller sees it: writes are kept until git runs. The helper reads each
 * connection's header and then must read nothing more (git reads the rest), so nothing may
 * follow the header on the wire until the helper has handed the connection to git.
 */
class GatedStdin extends Writable {
  private isOpen = false;
  private readonly held: (() => void)[] = [];

  constructor(private readonly socket: Socket) {
    super({ decodeStrings: false });
    socket.on('error', (error) => this.destroy(error));
  }

  /** Lets held and later writes through. */
  open(): void {
    this.isOpen = true;
    for (const action of this.held.splice(0)) action();
  }

  override _write(chunk: Buffer | string, encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.whenOpen(() => this.socket.write(chunk, encoding, callback));
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.whenOpen(() => this.socket.end(() => callback()));
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.socket.destroy();
    callback(error);
  }

  private whenOpen(action: () => void): void {
    if (this.isOpen) action();
    else this.held.push(action);
  }
}
