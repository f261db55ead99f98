import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProjectMeta, RepoInfo, RepoSearchResult } from '@forge-httpd/api-types';
import { createIssue } from '@forge-httpd/cob/write';
import { oidHexFromRid, type Rid } from '@forge-httpd/identity';
import {
  type BuiltHome,
  type BuiltRepository,
  buildNodeHome,
  initRepository,
  recordFollow,
  recordRouting,
  recordSeedingPolicy,
  sampleCommits,
  updateIdentity,
} from '@forge-httpd/builder';
import { getJson, makeTempDir, removeTempDir, SettleClock, startTestServer, type TestServer } from './support/index.js';

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

/** A home whose node seeds every repository, holding `repos`. */
function buildSeedingHome(dir: string, seed: string, repos: Array<{ name: string }> = []): Promise<BuiltHome> {
  return buildNodeHome({
    home: join(dir, 'home'),
    seed: seed.repeat(32),
    alias: 'seed',
    time: 1_700_000_000,
    seedingPolicy: { policy: 'allow', scope: 'all' },
    repos,
  });
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
    built = await buildSeedingHome(dir, 'a1', [{ name: 'first' }, { name: 'second' }, { name: 'third' }]);
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

// Listed repository infos are reused while their repository and the node's databases are
// unchanged: whatever changes must show on the very next listing. The settle clock makes the
// files written so far count as settled (so infos are kept) exactly when the test says.
describe('listed repository infos', () => {
  let dir: string;
  let built: BuiltHome;
  let server: TestServer;
  const clock = new SettleClock();

  beforeAll(async () => {
    dir = await makeTempDir();
    built = await buildSeedingHome(dir, 'c3', [{ name: 'first' }, { name: 'second' }]);
    server = await startTestServer({ home: built.home, now: clock.now });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await removeTempDir(dir);
  });

  const repo = (name: string): BuiltRepository => built.repos.find((candidate) => candidate.name === name) as BuiltRepository;
  const listed = async (rid: Rid): Promise<RepoInfo | undefined> => {
    const response = await getJson(`${server.baseUrl}/api/v1/repos?show=all&perPage=100`);
    expect(response.status).toBe(200);
    return (response.body as RepoInfo[]).find((info) => info.rid === rid);
  };
  const meta = (info: RepoInfo | undefined): ProjectMeta | undefined => (info?.payloads['xyz.forge.project'] as { meta?: ProjectMeta } | undefined)?.meta;
  /** Lists once with everything written so far settled: the infos shown are kept. */
  const listSettled = async (rid: Rid): Promise<RepoInfo | undefined> => {
    clock.settle();
    return listed(rid);
  };

  it('reads no repository for a listing whose repositories did not change', async () => {
    await listSettled(repo('first').rid);
    const opened: string[] = [];
    const stop = server.server.home.storage.observeOpens((rid) => opened.push(rid));
    try {
      expect(await listed(repo('first').rid)).toBeDefined();
    } finally {
      stop();
    }
    expect(opened).toEqual([]);
  }, 30_000);

  it('counts an issue opened after the listing was read at once', async () => {
    const first = repo('first');
    const before = meta(await listSettled(first.rid));
    const { local } = built.context;
    await createIssue(
      { gitDir: first.gitDir, keyPair: local.keyPair, alias: local.alias, time: built.context.clock.tick(), flavour: 'forge' },
      { title: 'Opened while listed', description: '' },
    );
    expect(meta(await listed(first.rid))?.issues.open).toBe((before?.issues.open ?? 0) + 1);
  }, 30_000);

  it('shows a new seed and a new delegate alias at once', async () => {
    const first = repo('first');
    const before = await listSettled(first.rid);
    recordRouting(built.context, { rid: first.rid, nid: 'z6MkrLMMsiPWUcNPHcRajuMi9mDfYckSoJyPwwnknocNYPm7' });
    recordFollow(built.context, { nid: built.nid, alias: 'renamed' });
    const after = await listed(first.rid);
    expect(after?.seeding).toBe((before?.seeding ?? 0) + 1);
    expect(after?.delegates).toEqual([{ id: `did:key:${built.nid}`, alias: 'renamed' }]);
  }, 30_000);

  it("shows an author's and a peer's new alias on the very next issue list and remotes", async () => {
    const first = repo('first');
    const { local } = built.context;
    await createIssue(
      { gitDir: first.gitDir, keyPair: local.keyPair, alias: local.alias, time: built.context.clock.tick(), flavour: 'forge' },
      { title: 'Whose alias', description: '' },
    );
    const aliases = async (): Promise<unknown[]> => {
      const issues = (await getJson(`${server.baseUrl}/api/v1/repos/${first.rid}/issues`)).body as Array<{ title: string; author: { alias?: string } }>;
      const remotes = (await getJson(`${server.baseUrl}/api/v1/repos/${first.rid}/remotes`)).body as Array<{ id: string; alias?: string }>;
      return [issues.find((issue) => issue.title === 'Whose alias')?.author.alias, remotes.find((remote) => remote.id === built.nid)?.alias];
    };
    recordFollow(built.context, { nid: built.nid, alias: 'before' });
    expect(await aliases()).toEqual(['before', 'before']);
    recordFollow(built.context, { nid: built.nid, alias: 'after' });
    expect(await aliases()).toEqual(['after', 'after']);
  }, 30_000);

  it("shows a node's new announcement in its inventory on the very next request", async () => {
    const nid = 'z6MkrLMMsiPWUcNPHcRajuMi9mDfYckSoJyPwwnknocNYPm7';
    const inventory = async (): Promise<unknown> => (await getJson(`${server.baseUrl}/api/v1/nodes/${nid}/inventory`)).body;
    const before = (await inventory()) as string[];
    expect(await inventory()).toEqual(before);
    const added = repo('second').rid;
    recordRouting(built.context, { rid: added, nid });
    expect(await inventory()).toEqual([...new Set([...before, added])].sort());
  }, 30_000);

  it('leaves out a repository made private at once, before the index sees it', async () => {
    const second = repo('second');
    expect(await listSettled(second.rid)).toBeDefined();
    await updateIdentity(built.context, second, {
      author: built.context.local,
      title: 'Hide',
      document: { ...second.document, visibility: { type: 'private' } },
    });
    expect(await listed(second.rid)).toBeUndefined();
  }, 30_000);

  it('leaves out a repository whose seeding policy turns to block at once', async () => {
    const first = repo('first');
    expect(await listSettled(first.rid)).toBeDefined();
    recordSeedingPolicy(built.context, { rid: first.rid, policy: { policy: 'block' } });
    expect(await listed(first.rid)).toBeUndefined();
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
    built = await buildSeedingHome(dir, 'b2');
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
    // Infos listed before are reused unread while their repositories are unchanged: at most the
    // page is read, never a repository outside it.
    const within = (page: readonly Rid[]) => (opened: readonly string[]) => expect(page).toEqual(expect.arrayContaining(opened));
    within(all.slice(0, 10))(await opensDuring(() => rids(server, '/repos?show=all')));
    within(all.slice(100, 105))(await opensDuring(() => rids(server, '/repos?show=all&perPage=5&page=20')));
    const delegate = `did:key:${built.nid}`;
    within(all.slice(0, 3))(await opensDuring(() => rids(server, `/delegates/${delegate}/repos?show=all&perPage=3`)));
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
