import { unlink } from 'node:fs/promises';
import net from 'node:net';

/** How the fake node answers: normally, never, or with an error line. */
export type ControlSocketMode = 'answer' | 'hang' | 'error';

/** Inputs of {@link startControlSocket}. */
export interface ControlSocketOptions {
  /** Socket path; keep it short (< 100 bytes), e.g. directly in os.tmpdir(). */
  readonly path: string;
  readonly mode: ControlSocketMode;
  /** What `{"command":"config"}` returns: the `node` object of config.json (§9). */
  readonly config?: unknown;
  /** What `{"command":"nodeId"}` returns. */
  readonly nid?: string;
}

/** A running control socket. */
export interface ControlSocketServer {
  /** Stops listening, drops open connections and removes the socket file. */
  close(): Promise<void>;
}

/**
 * Starts a real Unix-socket server speaking the node's control protocol (docs/node-home.md §9):
 * one JSON request line per connection, one JSON answer line, then close. `status` → `{}`,
 * `config` → the node config, `nodeId` → the NID; unknown commands get `{"error":…}`. In mode
 * `hang` connections are accepted and never answered; in mode `error` every request gets an
 * `{"error":"…"}` line. A stale socket file at `path` is replaced.
 * @param options - path, mode and the answers
 * @returns a handle to close the server
 */
export async function startControlSocket(options: ControlSocketOptions): Promise<ControlSocketServer> {
  await unlink(options.path).catch(() => undefined);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    if (options.mode !== 'hang') answerFirstLine(socket, options);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.path, () => resolve());
  });
  return {
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await unlink(options.path).catch(() => undefined);
    },
  };
}

function answerFirstLine(socket: net.Socket, options: ControlSocketOptions): void {
  let buffered = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    const newline = buffered.indexOf('\n');
    if (newline < 0) return;
    socket.end(`${JSON.stringify(reply(buffered.slice(0, newline), options))}\n`);
  });
}

function reply(line: string, options: ControlSocketOptions): unknown {
  if (options.mode === 'error') return { error: 'node is not ready' };
  let command: unknown;
  try {
    command = (JSON.parse(line) as { command?: unknown }).command;
  } catch {
    return { error: 'invalid request' };
  }
  switch (command) {
    case 'status':
      return {};
    case 'config':
      return options.config ?? {};
    case 'nodeId':
      return options.nid ?? { error: 'unknown node id' };
    default:
      return { error: `unsupported command: ${String(command)}` };
  }
}
