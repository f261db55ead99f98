import { existsSync } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { RepoInfo } from '@forge-httpd/api-types';
import { ensureDemoHome } from '../src/config/demo-home.js';
import { expectGolden, getJson, makeTempDir, removeTempDir, startTestServer, type TestServer } from './support/index.js';

let cacheRoot: string;
let home: string;
let server: TestServer;
const messages: string[] = [];
const options = (): Parameters<typeof ensureDemoHome>[0] => ({
  cacheRoot,
  version: '9.9.9',
  flavour: 'forge',
  log: (message) => messages.push(message),
});

beforeAll(async () => {
  cacheRoot = await makeTempDir();
  home = await ensureDemoHome(options());
  server = await startTestServer({ home });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await removeTempDir(cacheRoot);
});

// Issue and patch counts belong to the COB feature; the golden pins everything else.
function withoutCobCounts(info: RepoInfo): RepoInfo {
  const project = info.payloads['xyz.forge.project'];
  if (project !== undefined && 'meta' in project) {
    project.meta = { head: project.meta.head } as typeof project.meta;
  }
  return info;
}

describe('the demo node home', () => {
  it('is generated once into <cache>/demo-<version>-<flavour> and reused', async () => {
    expect(home).toBe(join(cacheRoot, 'demo-9.9.9-forge'));
    expect(messages[0]).toMatch(/^Generating the demo node home in .*demo-9\.9\.9-forge/);
    const before = await stat(join(home, 'config.json'));
    messages.length = 0;
    expect(await ensureDemoHome(options())).toBe(home);
    expect(messages).toEqual([`Serving the demo node home ${home}`]);
    expect((await stat(join(home, 'config.json'))).mtimeMs).toBe(before.mtimeMs);
  });

  it('is regenerated when a previous generation did not complete', async () => {
    const other = { ...options(), flavour: 'radicle' as const };
    const radicleHome = await ensureDemoHome(other);
    await rm(join(radicleHome, '.forge-demo-complete'));
    messages.length = 0;
    expect(await ensureDemoHome(other)).toBe(radicleHome);
    expect(messages[0]).toMatch(/^Generating/);
    expect(existsSync(join(radicleHome, '.forge-demo-complete'))).toBe(true);
  }, 120_000);

  it('serves the pinned repositories by default', async () => {
    const response = await getJson(`${server.baseUrl}/api/v1/repos`);
    const names = (response.body as RepoInfo[]).map((repo) => {
      const project = repo.payloads['xyz.forge.project'];
      return project !== undefined && 'meta' in project ? project.data.name : null;
    });
    expect(new Set(names)).toEqual(new Set(['acme-web', 'forge-httpd']));
  });

  it('shows canonical refs with annotated and lightweight tags and the crefs payload', async () => {
    const repos = (await getJson(`${server.baseUrl}/api/v1/repos/search?q=acme-web`)).body as { rid: string }[];
    const rid = repos[0]?.rid ?? '';
    const response = await getJson(`${server.baseUrl}/api/v1/repos/${rid}`);
    expect(response.status).toBe(200);
    expectGolden('demo-acme-web', withoutCobCounts(response.body as RepoInfo));
  });

  it('hides the private repository and does not list the blocked one as seeded', async () => {
    type Item = { rid: string; payloads: Record<string, { name?: string }> };
    const found = (await getJson(`${server.baseUrl}/api/v1/repos/search?perPage=50`)).body as Item[];
    const ridOf = (name: string): string | undefined => found.find((item) => item.payloads['xyz.forge.project']?.name === name)?.rid;
    expect(ridOf('secret-plans')).toBeUndefined();
    const blocked = ridOf('blocked-repo');
    expect(blocked).toBeDefined();
    const seeded = (await getJson(`${server.baseUrl}/api/v1/repos?show=all&perPage=50`)).body as RepoInfo[];
    expect(seeded.map((repo) => repo.rid)).not.toContain(blocked);
    expect(seeded.length).toBeGreaterThanOrEqual(3);
  });
});
