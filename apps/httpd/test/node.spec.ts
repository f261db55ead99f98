import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ControlSocketMode, startControlSocket } from '@forge-httpd/builder';
import { expectGolden, getJson, type JsonResponse, tempSocketPath, useFixtureServer } from './support/index.js';

const socketPath = tempSocketPath('node');
const fixture = useFixtureServer({ socketPath });

// What the fake node reports for `{"command":"config"}` (a whole node config, as a running node
// sends it; radicle-explorer rejects a partial one): passed through unchanged, key order kept.
const NODE_CONFIG = {
  alias: 'seed',
  listen: [],
  peers: { type: 'dynamic' },
  connect: [],
  externalAddresses: [],
  network: 'main',
  log: 'INFO',
  relay: 'auto',
  limits: {
    routingMaxSize: 1000,
    routingMaxAge: 604800,
    gossipMaxAge: 1209600,
    fetchConcurrency: 1,
    maxOpenFiles: 4096,
    rate: { inbound: { fillRate: 5.5, capacity: 1024 }, outbound: { fillRate: 10, capacity: 2048 } },
    connection: { inbound: 128, outbound: 16 },
  },
  workers: 8,
  seedingPolicy: { default: 'block' },
};

async function nodeInfoWithSocket(mode: ControlSocketMode | 'none'): Promise<{ response: JsonResponse }> {
  const socket = mode === 'none' ? null : await startControlSocket({ path: socketPath, mode, config: NODE_CONFIG });
  try {
    return { response: await getJson(fixture.url('/api/v1/node')) };
  } finally {
    await socket?.close();
  }
}

describe('GET /node', () => {
  it('reports a running node with its socket config, agent and web settings', async () => {
    const { response } = await nodeInfoWithSocket('answer');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=600, must-revalidate');
    expect(response.body).toMatchObject({ id: fixture.built.nid, agent: '/radicle:1.2.0/', state: 'running' });
    expect(response.text).toContain(JSON.stringify(NODE_CONFIG));
    expectGolden('node-running', response.body);
  });

  // The socket queries time out (500 ms each, side by side): a hang would fail on the test's own limit.
  it('answers with state stopped and config null when the socket never answers', async () => {
    const { response } = await nodeInfoWithSocket('hang');
    expect(response.body).toMatchObject({ state: 'stopped', config: null });
  }, 5_000);

  it('reports stopped and config null at once when no socket exists', async () => {
    const { response } = await nodeInfoWithSocket('none');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ state: 'stopped', config: null });
    expectGolden('node-stopped', response.body);
  });

  it('counts an error reply as running but shows config null', async () => {
    const { response } = await nodeInfoWithSocket('error');
    expect(response.body).toMatchObject({ state: 'running', config: null });
  });
});

describe('reloadable web configuration', () => {
  let original: string;
  const configPath = (): string => join(fixture.built.home, 'config.json');

  beforeAll(async () => {
    original = await readFile(configPath(), 'utf8');
  });

  afterAll(async () => {
    await writeFile(configPath(), original);
  });

  async function writeWeb(web: Record<string, unknown>): Promise<void> {
    const config = JSON.parse(original) as Record<string, unknown>;
    await writeFile(configPath(), `${JSON.stringify({ ...config, web }, null, 2)}\n`);
  }

  it('shows a changed description, banner and pin list on the next request, without a restart', async () => {
    await writeWeb({
      pinned: { repositories: [fixture.rid('beta'), fixture.rid('gamma-alpha')] },
      bannerUrl: 'https://example.org/banner-2.png',
      description: 'Changed while running',
    });
    const node = (await getJson(fixture.url('/api/v1/node'))).body as Record<string, unknown>;
    expect(node).toMatchObject({ bannerUrl: 'https://example.org/banner-2.png', description: 'Changed while running' });
    expect(node).not.toHaveProperty('avatarUrl');
    expect(Object.keys(node)).toEqual(['id', 'agent', 'config', 'state', 'bannerUrl', 'description']);
    const repos = (await getJson(fixture.url('/api/v1/repos'))).body as { rid: string }[];
    expect(new Set(repos.map((repo) => repo.rid))).toEqual(new Set([fixture.rid('beta'), fixture.rid('gamma-alpha')]));
  });

  it('answers [] for show=pinned when nothing is pinned', async () => {
    await writeWeb({ pinned: { repositories: [] } });
    expect((await getJson(fixture.url('/api/v1/repos'))).body).toEqual([]);
  });

  it('keeps the last good settings when config.json becomes invalid, and logs it once', async () => {
    await writeWeb({ pinned: { repositories: [] }, description: 'Last good' });
    expect((await getJson(fixture.url('/api/v1/node'))).body).toMatchObject({ description: 'Last good' });
    await writeFile(configPath(), '{ not json');
    const logged = fixture.server.logs.length;
    for (let i = 0; i < 3; i += 1) {
      const response = await getJson(fixture.url('/api/v1/node'));
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ description: 'Last good' });
    }
    expect(fixture.server.logs.slice(logged)).toHaveLength(1);
  });

  it('recovers once config.json is valid again', async () => {
    await writeFile(configPath(), original);
    expect((await getJson(fixture.url('/api/v1/node'))).body).toMatchObject({ description: 'Test seed node' });
  });
});
