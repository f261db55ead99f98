import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ControlSocketClient } from '@forge-httpd/storage';
import { createNodeHome, readNodeConfig, seedFromHex, startControlSocket, type ControlSocketMode, type ControlSocketServer } from '@forge-httpd/builder';

/** Sends one request line and collects everything until the server closes or `timeoutMs` passes. */
function request(socketPath: string, line: string, timeoutMs = 300): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(socketPath);
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text, closed: false });
    }, timeoutMs);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => {
      clearTimeout(timer);
      resolve({ text, closed: true });
    });
    socket.on('error', reject);
    socket.write(`${line}\n`);
  });
}

const NODE_CONFIG = { alias: 'alice', listen: [], seedingPolicy: { default: 'block' } };

describe('startControlSocket', () => {
  let server: ControlSocketServer | undefined;
  let socketPath: string;

  async function start(mode: ControlSocketMode): Promise<void> {
    socketPath = path.join(os.tmpdir(), `forge-${process.pid}-${mode}.sock`);
    server = await startControlSocket({ path: socketPath, mode, config: NODE_CONFIG, nid: 'z6MknSLrJoTcukLrE435hVNQT4JUhbvWLX4kUzqkEStBU8Vi' });
  }

  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('answers status with {} and closes the connection', async () => {
    await start('answer');
    expect(await request(socketPath, '{"command":"status"}')).toEqual({ text: '{}\n', closed: true });
  });

  it('answers config with the node configuration', async () => {
    await start('answer');
    const { text } = await request(socketPath, '{"command":"config"}');
    expect(JSON.parse(text)).toEqual(NODE_CONFIG);
  });

  it('answers unknown commands with an error object', async () => {
    await start('answer');
    const { text } = await request(socketPath, '{"command":"shutdown"}');
    expect(JSON.parse(text)).toHaveProperty('error');
  });

  it('never answers in hang mode', async () => {
    await start('hang');
    expect(await request(socketPath, '{"command":"status"}', 200)).toEqual({ text: '', closed: false });
  });

  it('answers every command with an error line in error mode', async () => {
    await start('error');
    const { text } = await request(socketPath, '{"command":"config"}');
    expect(text.endsWith('\n')).toBe(true);
    expect(Object.keys(JSON.parse(text) as object)).toEqual(['error']);
  });

  it.each([
    ['answer', true, NODE_CONFIG],
    ['hang', false, null],
  ] as const)('speaks the protocol the storage client expects in %s mode', async (mode, running, config) => {
    await start(mode);
    const client = new ControlSocketClient(socketPath);
    expect(await client.status(150)).toBe(running);
    expect(await client.config(150)).toEqual(config);
  });

  it('serves the node object of a home as config', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'forge-'));
    try {
      const context = await createNodeHome({ home: dir, seed: seedFromHex('22'.repeat(32)), alias: 'zed' });
      socketPath = path.join(os.tmpdir(), `forge-${process.pid}-home.sock`);
      server = await startControlSocket({ path: socketPath, mode: 'answer', config: await readNodeConfig(context.home) });
      expect(await new ControlSocketClient(socketPath).config(500)).toMatchObject({ alias: 'zed', seedingPolicy: { default: 'block' } });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('removes the socket file when closed, even with a hanging client', async () => {
    await start('hang');
    const pending = request(socketPath, '{"command":"status"}', 2000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await server?.close();
    server = undefined;
    expect(existsSync(socketPath)).toBe(false);
    expect((await pending).closed).toBe(true);
  });
});
