import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HelperGitChild } from './helper-git-child.js';
import { SPAWN_HELPER_PROGRAM, type SpawnHelperArguments } from './spawn-helper-program.js';
import type { HelperMessage, ServerMessage } from './spawn-helper-protocol.js';

/** How long the helper may take to start listening before the server gives up on it. */
const START_TIMEOUT_MS = 10_000;

/**
 * Starts git processes for a server from a small separate Node process.
 *
 * Why: Node 20 starts a process by forking the whole server first, and the fork blocks the
 * event loop for a time that grows with the server's resident memory (tools/bench/README.md).
 * A small helper forks quickly, and on another core. git's stdio are Unix socket connections the server opens to the helper,
 * so the data goes straight between git and the server; the helper only starts, signals
 * and reports exits. Every spawn's connections carry a random secret and a spawn id, and
 * the socket lives in a folder only this user can enter.
 */
export class GitSpawnHelper {
  private readonly children = new Map<string, HelperGitChild>();
  private sequence = 0;
  private exited = false;

  private constructor(
    private readonly helperProcess: ChildProcess,
    private readonly folder: string,
    private readonly options: SpawnHelperArguments,
    private readonly log: (message: string) => void,
    private readonly onEnd: () => void,
  ) {
    helperProcess.on('message', (message: HelperMessage) => this.receive(message));
    helperProcess.on('exit', (code, signal) => this.gone(`exit ${signal ?? code ?? '?'}`));
    helperProcess.on('error', (error) => this.gone(error.message));
    // A server that ends by process.exit() never closes the helper: its folder goes anyway.
    process.once('exit', this.removeFolder);
  }

  private readonly removeFolder = (): void => rmSync(this.folder, { recursive: true, force: true });

  /**
   * Starts the helper process and waits until it listens.
   * @param log - where the helper's unexpected end is reported
   * @param onEnd - called once when the helper ends by itself (killed, crashed), not when closed
   * @returns the running helper
   * @throws Error when the helper did not start in time
   */
  static async start(log: (message: string) => void = () => undefined, onEnd: () => void = () => undefined): Promise<GitSpawnHelper> {
    const folder = mkdtempSync(join(tmpdir(), 'forge-httpd-spawn-'));
    const options: SpawnHelperArguments = { folder, socketPath: join(folder, 's'), secret: randomBytes(16).toString('hex'), headerLength: 32 + 16 + 1 };
    // The options (with the secret) come as the first IPC message: a command line is public.
    const functions = SPAWN_HELPER_PROGRAM.map((program) => program.toString()).join('\n');
    const program = `${functions}\nprocess.once('message', (options) => runSpawnHelper(require('node:net'), require('node:child_process'), require('node:fs'), options))`;
    // No inherited NODE_OPTIONS (a profiler flag or heap size meant for the server).
    const child = spawn(process.execPath, ['-e', program], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'], env: {} });
    child.send(options);
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('the git spawn helper did not start in time')), START_TIMEOUT_MS);
        child.on('message', (message: HelperMessage) => {
          if (message.t !== 'listening') return;
          clearTimeout(timer);
          resolve();
        });
        child.once('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`the git spawn helper exited at start (${code ?? '?'})`));
        });
        child.once('error', (error) => {
          clearTimeout(timer);
          reject(error);
        });
      });
    } catch (error) {
      child.kill('SIGKILL');
      rmSync(folder, { recursive: true, force: true });
      throw error;
    }
    child.removeAllListeners();
    // A tool using the library may end while the helper still runs: the helper never keeps it alive.
    child.unref();
    child.channel?.unref();
    return new GitSpawnHelper(child, folder, options, log, onEnd);
  }

  /** Whether spawns can go through the helper (false once it has ended). */
  get usable(): boolean {
    return !this.exited;
  }

  /** The helper's process id. */
  get pid(): number | undefined {
    return this.helperProcess.pid;
  }

  /**
   * Starts `file args` with `env` through the helper.
   * @returns the process; failures to start arrive as its 'error' event, like Node's spawn
   */
  spawn(file: string, args: readonly string[], env: NodeJS.ProcessEnv): HelperGitChild {
    this.sequence += 1;
    const id = this.sequence.toString(16).padStart(16, '0');
    const sockets = [0, 1, 2].map((stdio) => this.connect(id, stdio)) as [Socket, Socket, Socket];
    const child = new HelperGitChild(sockets, (signal) => this.send({ t: 'kill', id, signal }));
    this.children.set(id, child);
    // The exit report may arrive after git's output has ended: wait for it, but only then.
    if (this.children.size === 1) this.helperProcess.channel?.ref();
    child.once('close', () => {
      this.children.delete(id);
      if (this.children.size === 0) this.helperProcess.channel?.unref();
    });
    this.send({ t: 'spawn', id, file, args, env });
    return child;
  }

  /** Ends the helper (its running processes are killed) and removes its socket folder. */
  close(): void {
    if (!this.exited && this.helperProcess.connected) {
      // The helper kills its processes and ends when its channel closes; a stuck one is killed.
      this.helperProcess.disconnect();
      const helperProcess = this.helperProcess;
      setTimeout(() => helperProcess.kill('SIGKILL'), 1_000).unref();
    }
    this.gone('closed');
  }

  private connect(id: string, stdio: number): Socket {
    const socket = connect(this.options.socketPath);
    socket.write(`${this.options.secret}${id}${stdio}`, 'latin1');
    return socket;
  }

  private send(message: ServerMessage): void {
    if (this.exited || !this.helperProcess.connected) return;
    this.helperProcess.send(message);
  }

  private receive(message: HelperMessage): void {
    if (message.t === 'listening') return;
    const child = this.children.get(message.id);
    if (child === undefined) return;
    if (message.t === 'spawned') child.spawned(message.pid);
    else if (message.t === 'exit') child.ended(message.code, message.signal);
    else child.failed(message.message, message.code);
  }

  private gone(reason: string): void {
    if (this.exited) return;
    this.exited = true;
    this.removeFolder();
    process.off('exit', this.removeFolder);
    if (reason !== 'closed') this.log(`the git spawn helper ended (${reason}); git processes start from the server itself until a new helper runs`);
    // Exits are no longer reported: a started process counts as killed, its connections closed.
    for (const child of this.children.values()) {
      if (child.pid === undefined) child.failed(`the git spawn helper ended (${reason})`, 'ECHILD');
      else {
        child.ended(null, 'SIGKILL');
        // Closing the server's ends lets an orphaned git see the end of its input and stop.
        for (const stream of [child.stdin, child.stdout, child.stderr]) stream.destroy();
      }
    }
    if (reason !== 'closed') this.onEnd();
  }
}
