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

/**
 * The whole program of the git spawn helper process (see spawn-helper.ts). It runs as
 * `node -e` with its modules passed in, so it must stay self-contained: no imports, no
 * closures over this file; only what Node itself provides.
 *
 * For each spawn the server opens three connections to the helper's socket (stdin, stdout,
 * stderr), each starting with a header naming the spawn, and sends the request over IPC;
 * once all four are in, the helper starts git with those connections as its stdio and closes
 * its own copies, so git's data never passes through the helper. It reports the pid, then
 * the exit. When the server goes away, the helper kills its processes and ends.
 */
export function runSpawnHelper(net: typeof NetModule, childProcess: typeof ChildProcessModule, fs: typeof FsModule, options: SpawnHelperArguments): void {
  const { folder, socketPath, secret, headerLength } = options;
  // What `ps` shows instead of this whole program's source (its `-e` argument).
  process.title = 'forge-httpd git spawn helper';
  /** A connection that has not sent its whole header in this time is not ours. */
  const HEADER_TIMEOUT_MS = 10_000;
  interface Waiting {
    readonly sockets: (NetModule.Socket | undefined)[];
    request?: SpawnRequest;
    timer: NodeJS.Timeout;
  }
  const waiting = new Map<string, Waiting>();
  const running = new Map<string, ChildProcessModule.ChildProcess>();

  const send = (message: HelperMessage): void => {
    if (process.connected) process.send?.(message);
  };
  const destroyAll = (sockets: readonly (NetModule.Socket | undefined)[]): void => {
    for (const socket of sockets) socket?.destroy();
  };
  const entry = (id: string): Waiting => {
    let found = waiting.get(id);
    if (found === undefined) {
      const created: Waiting = { sockets: [undefined, undefined, undefined], timer: setTimeout(() => abandon(id), HEADER_TIMEOUT_MS) };
      waiting.set(id, created);
      found = created;
    }
    return found;
  };
  const abandon = (id: string): void => {
    const found = waiting.get(id);
    if (found === undefined) return;
    waiting.delete(id);
    destroyAll(found.sockets);
    if (found.request !== undefined) send({ t: 'error', id, message: 'stdio connections did not arrive', code: 'ETIMEDOUT' });
  };
  const start = (id: string, found: Waiting): void => {
    const request = found.request;
    const [stdin, stdout, stderr] = found.sockets;
    if (request === undefined || stdin === undefined || stdout === undefined || stderr === undefined) return;
    waiting.delete(id);
    clearTimeout(found.timer);
    let child: ChildProcessModule.ChildProcess;
    try {
      child = childProcess.spawn(request.file, request.args, { env: request.env, stdio: [stdin, stdout, stderr], shell: false });
    } catch (error) {
      destroyAll(found.sockets);
      send({ t: 'error', id, message: (error as Error).message, code: (error as NodeJS.ErrnoException).code });
      return;
    }
    // git holds its own copies of the connections now.
    destroyAll(found.sockets);
    child.on('error', (error: NodeJS.ErrnoException) => {
      running.delete(id);
      send({ t: 'error', id, message: error.message, code: error.code });
    });
    child.on('exit', (code, signal) => {
      running.delete(id);
      send({ t: 'exit', id, code, signal });
    });
    if (child.pid === undefined) return;
    running.set(id, child);
    send({ t: 'spawned', id, pid: child.pid });
  };

  const server = net.createServer((socket) => {
    let header = Buffer.alloc(0);
    socket.on('error', () => socket.destroy());
    const timer = setTimeout(() => socket.destroy(), HEADER_TIMEOUT_MS);
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
      const found = entry(id);
      if (found.sockets[stdio] !== undefined) {
        socket.destroy();
        return;
      }
      found.sockets[stdio] = socket;
      start(id, found);
    };
    socket.on('data', onData);
  });
  server.on('error', (error) => {
    process.stderr.write(`forge-httpd git spawn helper: ${error.message}\n`);
    process.exit(1);
  });

  process.on('message', (message: ServerMessage) => {
    switch (message.t) {
      case 'spawn': {
        const found = entry(message.id);
        found.request = message;
        start(message.id, found);
        return;
      }
      case 'kill': {
        const child = running.get(message.id);
        if (child !== undefined) {
          child.kill(message.signal);
          return;
        }
        // Killed before it ran: it never will.
        const found = waiting.get(message.id);
        if (found === undefined) return;
        waiting.delete(message.id);
        clearTimeout(found.timer);
        destroyAll(found.sockets);
        send({ t: 'exit', id: message.id, code: null, signal: message.signal });
        return;
      }
    }
  });
  // The server is gone (ended or killed): nobody reads these processes any more.
  process.on('disconnect', () => {
    for (const child of running.values()) child.kill('SIGKILL');
    // The server may have been killed without a chance to clean up.
    fs.rmSync(folder, { recursive: true, force: true });
    process.exit(0);
  });
  server.listen(socketPath, () => send({ t: 'listening' }));
}
