import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { RepoInfo, RepoSearchResult } from '@forge-httpd/api-types';
import { oidHexFromRid, type Rid } from '@forge-httpd/identity';
import { type BuiltHome, type BuiltRepository, buildNodeHome, initRepository, sampleCommits, updateIdentity } from '@forge-httpd/tools';
import { getJson, makeTempDir, removeTempDir, startTestServer, type TestServer } from './support/index.js';

/**
 * The storage index behind `/repos`, `/repos/search` and `/delegates/{did}/repos`: fresh within
 * its documented bound (one sweep: ~1 s at these sizes) and not reading every repository per
 * request. Changes are polled for up to 10 s.
 */
const BOUND_MS = 10_000;

async function rids(server: TestServer, path: string): Promise<string[]> {
  const response = await getJson(`${server.baseUrl}/api/v1${path}`);
  expect(response.status).toBe(200);
  return (response.body as Array<RepoInfo | RepoSearchResult>).map((item) => item.rid);
}

async function eventually(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + BOUND_MS;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not reflected within ${BOUND_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function addRepository(built: BuiltHome, name: string): Promise<BuiltRepository> {
  const commits = sampleCommits({ project: name, authors: [{ name: 'Tester', email: 'tester@example.org' }], start: 1_600_000_000, count: 1 });
  return initRepository(built.context, { name, description: `Repository ${name}`, defaultBranch: 'main', history: { kind: 'generated', commits } });
}

describe('storage index freshness', () => {
  let dir: string;
  let built: BuiltHome;
  let server: TestServer;

  beforeAll(async () => {
    dir = await makeTempDir();
    built = await buildNodeHome({
      home: join(dir, 'home'),
      seed: 'a1'.repeat(32),
      alias: 'seed',
      time: 1_700_000_000,
      seedingPolicy: { policy: 'allow', scope: 'all' },
      repos: [{ name: 'first' }, { name: 'second' }, { name: 'third' }],
    });
    server = await startTestServer({ home: built.home });
    // The first listing waits for the index build.
    expect(await rids(server, '/repos?show=all')).toHaveLength(3);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await removeTempDir(dir);
  });

  it('lists and finds a repository added to storage after the server started', async () => {
    const late = await addRepository(built, 'latecomer');
    await eventually(async () => (await rids(server, '/repos?show=all')).includes(late.rid));
    await eventually(async () => (await rids(server, '/repos/search?q=LATE')).includes(late.rid));
    expect((await getJson(`${server.baseUrl}/api/v1/repos/${late.rid}`)).status).toBe(200);
  }, 30_000);

  it('never shows a repository made private, and drops it from the index within the bound', async () => {
    const repo = built.repos.find((candidate) => candidate.name === 'second') as BuiltRepository;
    await updateIdentity(built.context, repo, {
      author: built.context.local,
      title: 'Hide',
      document: { ...repo.document, visibility: { type: 'private' } },
    });
    // Shown items are read or re-checked per request: private == absent at once.
    expect((await getJson(`${server.baseUrl}/api/v1/repos/${repo.rid}`)).status).toBe(404);
    expect(await rids(server, '/repos/search?q=second')).toEqual([]);
    expect(await rids(server, '/repos?show=all&perPage=100')).not.toContain(repo.rid);
    await eventually(async () => server.server.home.storageIndex.get(repo.rid)?.document?.visibility.type === 'private');
  }, 30_000);

  it('drops a repository removed from storage', async () => {
    const repo = built.repos.find((candidate) => candidate.name === 'third') as BuiltRepository;
    await rm(repo.gitDir, { recursive: true, force: true });
    expect((await getJson(`${server.baseUrl}/api/v1/repos/${repo.rid}`)).status).toBe(404);
    expect(await rids(server, '/repos/search?q=third')).toEqual([]);
    await eventually(async () => !(await rids(server, '/repos?show=all&perPage=100')).includes(repo.rid));
    await eventually(async () => server.server.home.storageIndex.get(repo.rid) === undefined);
  }, 30_000);
});

describe('listings over a few hundred repositories', () => {
  const COUNT = 200;
  let dir: string;
  let built: BuiltHome;
  let server: TestServer;
  let all: Rid[];

  /** RIDs of the repositories read (opened) while `request` runs. */
  async function opensDuring(request: () => Promise<unknown>): Promise<string[]> {
    const opened: string[] = [];
    const stop = server.server.home.storage.observeOpens((rid) => opened.push(rid));
    try {
      await request();
    } finally {
      stop();
    }
    return opened;
  }

  beforeAll(async () => {
    dir = await makeTempDir();
    built = await buildNodeHome({
      home: join(dir, 'home'),
      seed: 'b2'.repeat(32),
      alias: 'seed',
      time: 1_700_000_000,
      seedingPolicy: { policy: 'allow', scope: 'all' },
    });
    all = [];
    for (let i = 0; i < COUNT; i++) all.push((await addRepository(built, `project-${String(i).padStart(3, '0')}`)).rid);
    all.sort((a, b) => oidHexFromRid(a).localeCompare(oidHexFromRid(b)));
    server = await startTestServer({ home: built.home });
    await server.server.home.storageIndex.ready();
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    await removeTempDir(dir);
  });

  it('lists every repository in RID byte order, page by page', async () => {
    expect(await rids(server, `/repos?show=all&perPage=${COUNT}`)).toEqual(all);
    expect(await rids(server, '/repos?show=all&perPage=7&page=3')).toEqual(all.slice(21, 28));
  }, 30_000);

  it('reads only the repositories of the requested page', async () => {
    expect(await opensDuring(() => rids(server, '/repos?show=all'))).toEqual(all.slice(0, 10));
    expect(await opensDuring(() => rids(server, '/repos?show=all&perPage=5&page=20'))).toEqual(all.slice(100, 105));
    const delegate = `did:key:${built.nid}`;
    expect(await opensDuring(() => rids(server, `/delegates/${delegate}/repos?show=all&perPage=3`))).toEqual(all.slice(0, 3));
  }, 30_000);

  it('searches names without reading any repository', async () => {
    let found: string[] = [];
    const opened = await opensDuring(async () => {
      found = await rids(server, '/repos/search?q=PROJECT-1&perPage=200');
    });
    expect(opened).toEqual([]);
    expect(found).toHaveLength(100);
    expect(await rids(server, '/repos/search?q=project-042')).toHaveLength(1);
  }, 30_000);
});
