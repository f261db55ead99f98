import type * as ChildProcessModule from 'node:child_process';
import type * as FsModule from 'node:fs';
import type * as NetModule from 'node:net';
import type { HelperMessage, ServerMessage, SpawnRequest } from './spawn-helper-protocol.js';

/** What the helper program is given when it starts. */
export interface SpawnHelperArguments {
  /** The private folder (mode 0700) holding the socket; removed when the helper ends. */
  readonly folder: string;
  /** Unix socket path (inside `folder`) the server connects stdio sockets to. */
  readonly socketPath: string;
  /** Random text every stdio connection must start with. */
  readonly secret: string;
  /** Length of a connection's header: the secret, a 16-character spawn id, one stdio digit. */
  readonly headerLength: number;
}

/** A spawn whose request or stdio connections have not all arrived yet. */
interface Waiting {
  readonly sockets: (NetModule.Socket | undefined)[];
  request?: SpawnRequest;
  timer: NodeJS.Timeout;
}

/** What the helper's functions share: Node's modules, its arguments, and the spawns it knows. */
interface HelperState {
  readonly net: typeof NetModule;
  readonly childProcess: typeof ChildProcessModule;
  readonly fs: typeof FsModule;
  readonly options: SpawnHelperArguments;
  /** A connection that has not sent its whole header in this time is not ours. */
  readonly headerTimeoutMs: number;
  readonly waiting: Map<string, Waiting>;
  readonly running: Map<string, ChildProcessModule.ChildProcess>;
}

/**
 * The entry of the git spawn helper process (see spawn-helper.ts). It runs as `node -e` with
 * its modules passed in, together with the other functions of {@link SPAWN_HELPER_PROGRAM},
 * so each must stay self-contained: no imports, no closures over this file; only what Node
 * itself provides and the other functions of the program.
 *
 * For each spawn the server opens three connections to the helper's socket (stdin, stdout,
 * stderr), each starting with a header naming the spawn, and sends the request over IPC;
 * once all four are in, the helper starts git with those connections as its stdio and closes
 * its own copies, so git's data never passes through the helper. It reports the pid, then
 * the exit. When the server goes away, the helper kills its processes and ends.
 */
function runSpawnHelper(net: typeof NetModule, childProcess: typeof ChildProcessModule, fs: typeof FsModule, options: SpawnHelperArguments): void {
  // What `ps` shows instead of this whole program's source (its `-e` argument).
  process.title = 'forge-httpd git spawn helper';
  const helper: HelperState = { net, childProcess, fs, options, headerTimeoutMs: 10_000, waiting: new Map(), running: new Map() };
  const server = net.createServer((socket) => acceptStdio(helper, socket));
  server.on('error', (error) => {
    process.stderr.write(`forge-httpd git spawn helper: ${error.message}\n`);
    process.exit(1);
  });
  process.on('message', (message: ServerMessage) => onServerMessage(helper, message));
  // The server is gone (ended or killed): nobody reads these processes any more.
  process.on('disconnect', () => {
    for (const child of helper.running.values()) child.kill('SIGKILL');
    // The server may have been killed without a chance to clean up.
    fs.rmSync(options.folder, { recursive: true, force: true });
    process.exit(0);
  });
  server.listen(options.socketPath, () => sendToServer({ t: 'listening' }));
}

function sendToServer(message: HelperMessage): void {
  if (process.connected) process.send?.(message);
}

function destroyAll(sockets: readonly (NetModule.Socket | undefined)[]): void {
  for (const socket of sockets) socket?.destroy();
}

/** The spawn `id` waits for its request and connections (created on first mention). */
function waitingEntry(helper: HelperState, id: string): Waiting {
  let found = helper.waiting.get(id);
  if (found === undefined) {
    const created: Waiting = { sockets: [undefined, undefined, undefined], timer: setTimeout(() => abandonSpawn(helper, id), helper.headerTimeoutMs) };
    helper.waiting.set(id, created);
    found = created;
  }
  return found;
}

function abandonSpawn(helper: HelperState, id: string): void {
  const found = helper.waiting.get(id);
  if (found === undefined) return;
  helper.waiting.delete(id);
  destroyAll(found.sockets);
  if (found.request !== undefined) sendToServer({ t: 'error', id, message: 'stdio connections did not arrive', code: 'ETIMEDOUT' });
}

/** Starts git once the request and its three connections are in; else waits for the rest. */
function startWhenComplete(helper: HelperState, id: string, found: Waiting): void {
  const request = found.request;
  const [stdin, stdout, stderr] = found.sockets;
  if (request === undefined || stdin === undefined || stdout === undefined || stderr === undefined) return;
  helper.waiting.delete(id);
  clearTimeout(found.timer);
  let child: ChildProcessModule.ChildProcess;
  try {
    child = helper.childProcess.spawn(request.file, request.args, { env: request.env, stdio: [stdin, stdout, stderr], shell: false });
  } catch (error) {
    destroyAll(found.sockets);
    sendToServer({ t: 'error', id, message: (error as Error).message, code: (error as NodeJS.ErrnoException).code });
    return;
  }
  // git holds its own copies of the connections now.
  destroyAll(found.sockets);
  child.on('error', (error: NodeJS.ErrnoException) => {
    helper.running.delete(id);
    sendToServer({ t: 'error', id, message: error.message, code: error.code });
  });
  child.on('exit', (code, signal) => {
    helper.running.delete(id);
    sendToServer({ t: 'exit', id, code, signal });
  });
  if (child.pid === undefined) return;
  helper.running.set(id, child);
  sendToServer({ t: 'spawned', id, pid: child.pid });
}

/** Reads a connection's header (secret, spawn id, stdio digit) and files it under its spawn. */
function acceptStdio(helper: HelperState, socket: NetModule.Socket): void {
  const { secret, headerLength } = helper.options;
  let header = Buffer.alloc(0);
  socket.on('error', () => socket.destroy());
  const timer = setTimeout(() => socket.destroy(), helper.headerTimeoutMs);
  const onData = (chunk: Buffer): void => {
    header = Buffer.concat([header, chunk]);
    if (header.length < headerLength) return;
    clearTimeout(timer);
    socket.off('data', onData);
    socket.pause();
    // The server writes nothing after the header until git runs: more means a stranger.
    const stdio = (header[headerLength - 1] ?? 0) - 48;
    if (header.length !== headerLength || header.toString('latin1', 0, secret.length) !== secret || stdio < 0 || stdio > 2) {
      socket.destroy();
      return;
    }
    const id = header.toString('latin1', secret.length, headerLength - 1);
    const found = waitingEntry(helper, id);
    if (found.sockets[stdio] !== undefined) {
      socket.destroy();
      return;
    }
    found.sockets[stdio] = socket;
    startWhenComplete(helper, id, found);
  };
  socket.on('data', onData);
}

function onServerMessage(helper: HelperState, message: ServerMessage): void {
  switch (message.t) {
    case 'spawn': {
      const found = waitingEntry(helper, message.id);
      found.request = message;
      startWhenComplete(helper, message.id, found);
      return;
    }
    case 'kill': {
      const child = helper.running.get(message.id);
      if (child !== undefined) {
        child.kill(message.signal);
        return;
      }
      // Killed before it ran: it never will.
      const found = helper.waiting.get(message.id);
      if (found === undefined) return;
      helper.waiting.delete(message.id);
      clearTimeout(found.timer);
      destroyAll(found.sockets);
      sendToServer({ t: 'exit', id: message.id, code: null, signal: message.signal });
      return;
    }
  }
}

/**
 * The helper program's functions, as the helper process is given them (their source, entry
 * first): each calls only the others and what Node provides.
 */
export const SPAWN_HELPER_PROGRAM: readonly ((...args: never[]) => unknown)[] = [
  runSpawnHelper,
  sendToServer,
  destroyAll,
  waitingEntry,
  abandonSpawn,
  startWhenComplete,
  acceptStdio,
  onServerMessage,
];
