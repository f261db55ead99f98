import { readFile, writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { type BuiltHome, repositoryByName, startControlSocket } from '@forge-httpd/builder';
import { eventually, homeChanges, type HomeSnapshot, isPlainError, pause, snapshotHome } from './support/faults.js';
import { buildFixtureHome, getJson, type JsonResponse, makeTempDir, removeTempDir, startTestServer, tempSocketPath, type TestServer } from './support/index.js';

// Faults of the node around the repositories (its databases, its control socket) and of the
// clients (hundreds of slow senders), injected while the server runs.
let dir: string;
let built: BuiltHome;
let server: TestServer;
let before: HomeSnapshot;
const socketPath = tempSocketPath('faults');
const touched: string[] = [];

beforeAll(async () => {
  dir = await makeTempDir();
  built = await buildFixtureHome(join(dir, 'home'));
  server = await startTestServer({ home: built.home, socketPath, requestTimeoutMs: 1000 });
  before = await snapshotHome(built.home);
}, 60_000);

afterAll(async () => {
  await server?.close();
  await removeTempDir(dir);
});

const api = (path: string): Promise<JsonResponse> => getJson(`${server.baseUrl}/api/v1${path}`);
const alpha = (): string => repositoryByName(built, 'alpha').rid;

async function expectOthersAnswer(paths: readonly string[]): Promise<void> {
  for (const path of paths) expect([path, (await api(path)).status]).toEqual([path, 200]);
}

describe('a locked policies database', () => {
  it('answers routes that read policies with a plain 503 and logs once while another connection holds an exclusive lock, and again normally once it is released', async () => {
    const holder = new Database(join(built.home, 'node', 'policies.db'));
    const from = server.logs.length;
    holder.exec('BEGIN EXCLUSIVE');
    try {
      for (let i = 0; i < 3; i += 1) {
        const response = await api('/node/policies/repos');
        expect([response.status, isPlainError(response), response.headers.get('retry-after')]).toEqual([503, true, '1']);
      }
      await expectOthersAnswer([`/repos/${alpha()}/commits`, `/repos/${alpha()}/tree/${repositoryByName(built, 'alpha').head}/`]);
      const lines = server.logs.slice(from);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/policies\.db is locked by another connection/);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    await eventually(async () => (await api('/node/policies/repos')).status === 200);
  });
});

describe('a node database overwritten with garbage', () => {
  it('answers plain JSON errors or empty values, never a crash, and reads the database again once it is restored', async () => {
    const file = join(built.home, 'node', 'node.db');
    expect((await api(`/nodes/${built.nid}`)).status).toBe(200);
    const bytes = await readFile(file);
    touched.push('node/node.db');
    await writeFile(file, Buffer.alloc(bytes.length, 0x5a));
    try {
      for (const path of ['/node', `/nodes/${built.nid}`, `/nodes/${built.nid}/inventory`, '/repos?show=all', `/repos/${alpha()}`]) {
        const response = await api(path);
        expect([path, response.status === 200 || isPlainError(response)]).toEqual([path, true]);
      }
      await expectOthersAnswer([`/repos/${alpha()}/commits`, `/repos/${alpha()}/tree/${repositoryByName(built, 'alpha').head}/`]);
    } finally {
      await writeFile(file, bytes);
    }
    await eventually(async () => (await api(`/repos/${alpha()}`)).status === 200);
    expect((await api(`/nodes/${built.nid}/inventory`)).status).toBe(200);
    expect((await api('/node')).status).toBe(200);
  });
});

describe('a control socket that accepts and never answers', () => {
  it('answers /node with config null within 2 s', async () => {
    const socket = await startControlSocket({ path: socketPath, mode: 'hang' });
    try {
      const response = await getJson(`${server.baseUrl}/api/v1/node`, { signal: AbortSignal.timeout(2000) });
      expect(response.status).toBe(200);
      expect((response.body as { config: unknown }).config).toBeNull();
    } finally {
      await socket.close();
    }
  });
});

describe('many slow clients', () => {
  it('answers /api/v1/node while 300 sockets send a request one byte at a time', async () => {
    const { port } = new URL(server.baseUrl);
    const sockets: Socket[] = [];
    const request = 'GET /api/v1/node HTTP/1.1\r\nHost: x\r\nX-Slow: yes\r\n\r\n';
    let offset = 0;
    for (let i = 0; i < 300; i += 1) {
      const socket = connect(Number(port), '127.0.0.1');
      socket.on('error', () => undefined);
      sockets.push(socket);
    }
    const drip = setInterval(() => {
      const byte = request[offset % request.length] ?? '';
      offset += 1;
      for (const socket of sockets) if (!socket.destroyed) socket.write(byte);
    }, 50);
    try {
      await pause(200);
      const response = await getJson(`${server.baseUrl}/api/v1/node`, { signal: AbortSignal.timeout(2000) });
      expect(response.status).toBe(200);
    } finally {
      clearInterval(drip);
      for (const socket of sockets) socket.destroy();
    }
  });
});

describe('the node home after every fault', () => {
  it('was not written by the server', async () => {
    const after = await snapshotHome(built.home);
    // SQLite's WAL protocol: a reader of node.db creates its `-wal` and `-shm` when the node is
    // not running to hold them; policies.db's rollback journal belongs to the lock holder.
    touched.push('node/node.db-wal', 'node/node.db-shm', 'node/policies.db-journal');
    expect(homeChanges(before, after, touched)).toEqual([]);
  });
});
