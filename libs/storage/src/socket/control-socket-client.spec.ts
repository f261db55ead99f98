import { randomBytes } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ControlSocketClient } from './control-socket-client.js';

type Reply = (command: string, socket: Socket) => void;

function socketPath(): string {
  return path.join(tmpdir(), `forge-${randomBytes(4).toString('hex')}.sock`);
}

async function startServer(file: string, reply: Reply): Promise<{ server: Server; commands: string[] }> {
  const commands: string[] = [];
  const server = createServer((socket) => {
    let buffer = '';
    socket.on('data', (chunk) => {
      buffer += chunk.toString();
      if (!buffer.includes('\n')) return;
      const line = buffer.slice(0, buffer.indexOf('\n'));
      commands.push(line);
      reply((JSON.parse(line) as { command: string }).command, socket);
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(file, resolve));
  return { server, commands };
}

describe('ControlSocketClient', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  it('reports a node that answers as running and returns its config object unchanged', async () => {
    const file = socketPath();
    const config = { alias: 'seed', listen: [], limits: { rate: { inbound: { fillRate: 5.0 } } } };
    const started = await startServer(file, (command, socket) => socket.end(command === 'config' ? `${JSON.stringify(config)}\n` : '{}\n'));
    server = started.server;
    const client = new ControlSocketClient(file);
    const [running, reply] = await Promise.all([client.status(500), client.config(500)]);
    expect(running).toBe(true);
    expect(reply).toEqual(config);
    expect(started.commands.sort()).toEqual(['{"command":"config"}', '{"command":"status"}']);
  });

  it('keeps the reply text verbatim for callers that need number spellings like 5.0', async () => {
    const file = socketPath();
    server = (await startServer(file, (_command, socket) => socket.end('{"fillRate":5.0}\n'))).server;
    expect(await new ControlSocketClient(file).configReply(500)).toEqual({
      value: { fillRate: 5 },
      text: '{"fillRate":5.0}',
    });
  });

  it('gives up within the timeout when the node accepts but never answers', async () => {
    const file = socketPath();
    server = (await startServer(file, () => undefined)).server;
    const client = new ControlSocketClient(file);
    // Without the timeout this would wait forever and fail on the test's own limit.
    const [running, config] = await Promise.all([client.status(200), client.config(200)]);
    expect([running, config]).toEqual([false, null]);
  }, 5_000);

  it('treats an error line as running but as no config', async () => {
    const file = socketPath();
    server = (await startServer(file, (_command, socket) => socket.end('{"error":"boom"}\n'))).server;
    const client = new ControlSocketClient(file);
    expect(await client.status(500)).toBe(true);
    expect(await client.config(500)).toBeNull();
  });

  it.each([
    ['a non-object line', '"text"\n'],
    ['a line that is not JSON', 'nope\n'],
    ['an empty reply', ''],
  ])('treats %s as not running and no config', async (_case, answer) => {
    const file = socketPath();
    server = (await startServer(file, (_command, socket) => socket.end(answer))).server;
    const client = new ControlSocketClient(file);
    expect(await client.status(500)).toBe(false);
    expect(await client.config(500)).toBeNull();
  });

  it('accepts a reply closed without a final newline', async () => {
    const file = socketPath();
    server = (await startServer(file, (_command, socket) => socket.end('{"alias":"x"}'))).server;
    expect(await new ControlSocketClient(file).config(500)).toEqual({ alias: 'x' });
  });

  it('reports stopped when there is no socket', async () => {
    const client = new ControlSocketClient(socketPath());
    expect(await client.status(500)).toBe(false);
    expect(await client.config(500)).toBeNull();
  });
});
