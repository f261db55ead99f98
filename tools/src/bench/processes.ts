import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import net from 'node:net';

/** Output of a finished command. */
export interface CommandResult {
  readonly code: number | null;
  readonly stdout: Buffer;
  readonly stderr: string;
}

/** Runs a command without a shell and collects its output; never throws for a non-zero exit. */
export function runCommand(command: string, args: readonly string[], options: SpawnOptions = {}): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') }));
  });
}

/** Like {@link runCommand} but throws with stderr when the exit code is not 0. */
export async function runChecked(command: string, args: readonly string[], options: SpawnOptions = {}): Promise<Buffer> {
  const result = await runCommand(command, args, options);
  if (result.code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.code}: ${result.stderr.slice(0, 2000)}`);
  return result.stdout;
}

/** True when `command` is on PATH. */
export async function hasCommand(command: string): Promise<boolean> {
  const result = await runCommand('sh', ['-c', 'command -v "$1"', 'sh', command]).catch(() => null);
  return result?.code === 0;
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Polls `url` until it answers (with `status` when given, else any) or `timeoutMs` passes.
 * @throws naming the last status seen, when it answered with another one
 */
export async function waitForHttp(url: string, timeoutMs: number, child?: ChildProcess, status?: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let seen: number | null = null;
  for (;;) {
    if (child !== undefined && child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode} before answering ${url}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await response.arrayBuffer();
      if (status === undefined || response.status === status) return;
      seen = response.status;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline)
      throw new Error(seen === null ? `no answer from ${url} within ${timeoutMs} ms` : `${url} answered ${seen}, not ${status}, within ${timeoutMs} ms`);
    await sleep(50);
  }
}

/** Polls until something listens on `port` (a TCP connect, no request) or `timeoutMs` passes. */
export async function waitForPort(port: number, timeoutMs: number, child?: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child !== undefined && child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode} before listening on ${port}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      const settle = (listening: boolean): void => {
        socket.destroy();
        resolve(listening);
      };
      socket.once('connect', () => settle(true));
      socket.once('error', () => settle(false));
      socket.setTimeout(1000, () => settle(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nothing listened on ${port} within ${timeoutMs} ms`);
    await sleep(20);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Children started by {@link spawnServer} that have not been stopped yet. */
const liveChildren = new Set<ChildProcess>();

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  // Each server runs in its own process group, so helpers it forks (fcgiwrap's preforked
  // workers, nginx's worker) go with it and cannot keep our pipes open after it is gone.
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}

/** Stops a child we started and its process group (SIGTERM, SIGKILL after 3 s); waits for it. */
export async function stopChild(child: ChildProcess): Promise<void> {
  liveChildren.delete(child);
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    killGroup(child, 'SIGTERM');
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 3000);
    await exited;
    clearTimeout(timer);
  }
  killGroup(child, 'SIGKILL'); // leftovers of the group, if any
  child.stdout?.destroy();
  child.stderr?.destroy();
}

/** Kills every server still running (for exit paths: errors, Ctrl-C). */
export function killAllServers(): void {
  for (const child of liveChildren) killGroup(child, 'SIGKILL');
  liveChildren.clear();
}

/** Resident set size of a process in bytes (VmRSS from /proc), or null when it is gone. */
export async function readRss(pid: number): Promise<number | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+) kB/m.exec(status);
    return match?.[1] === undefined ? null : Number(match[1]) * 1024;
  } catch {
    return null;
  }
}

/** Samples RSS every `intervalMs` until `stop()` is called; returns `[msSinceStart, bytes]` pairs. */
export function sampleRss(pid: number, intervalMs: number): { stop(): Promise<Array<[number, number]>> } {
  const samples: Array<[number, number]> = [];
  const start = Date.now();
  const timer = setInterval(() => {
    void readRss(pid).then((rss) => {
      if (rss !== null) samples.push([Date.now() - start, rss]);
    });
  }, intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      const last = await readRss(pid);
      if (last !== null) samples.push([Date.now() - start, last]);
      return samples;
    },
  };
}

/** Spawns a long-running child with its output kept in a small ring for error messages. */
export function spawnServer(command: string, args: readonly string[], options: SpawnOptions = {}): { child: ChildProcess; log: () => string } {
  const child = spawn(command, args, { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  liveChildren.add(child);
  child.once('exit', () => liveChildren.delete(child));
  let tail = '';
  const keep = (chunk: Buffer): void => {
    tail = (tail + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.on('error', (error) => keep(Buffer.from(String(error))));
  return { child, log: () => tail };
}
