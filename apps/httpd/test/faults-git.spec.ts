import { NotFoundError } from '@forge-httpd/identity';
import { execFileSync } from 'node:child_process';
import { readFile, rename, truncate, unlink, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Rid } from '@forge-httpd/identity';
import { updateRefs } from '@forge-httpd/storage/write';
import { type BuiltHome, buildNodeHome, namespacedRef, repositoryByName } from '@forge-httpd/builder';
import { RepoInfoService } from '../src/repos/repo-info.service.js';
import { RepositoryAccess } from '../src/repository-access/repository-access.service.js';
import { childProcesses, eventually, homeChanges, type HomeSnapshot, isPlainError, pause, snapshotHome } from './support/faults.js';
import { FIXTURE_TIME, getJson, type JsonResponse, makeTempDir, removeTempDir, startTestServer, type TestServer } from './support/index.js';

// Faults injected into a builder-written node home while the server runs. The promise for
// each: the affected route answers our plain JSON error (never a hang, a crash or a body with
// internals), every other repository keeps answering, the server recovers by itself once the
// fault is removed, it writes nothing into the home, and it logs the event once.
let dir: string;
let built: BuiltHome;
let server: TestServer;
let before: HomeSnapshot;
/** Files the tests themselves rewrote (relative to the home), left out of the write check. */
const touched: string[] = [];
const touch = (file: string): void => void touched.push(relative(built.home, file));

const REPOS = ['steady', 'loose', 'packed', 'doomed', 'moving', 'vanishing'] as const;
/** Repositories a test moves away for a while: the others are checked against them. */
const MOVED = new Set<string>(['doomed', 'vanishing']);

beforeAll(async () => {
  dir = await makeTempDir();
  built = await buildNodeHome({
    home: join(dir, 'home'),
    seed: 'fa17'.padEnd(64, '0'),
    alias: 'seed',
    time: FIXTURE_TIME,
    repos: [...REPOS.map((name) => ({ name, description: `The ${name} repository`, repack: name === 'packed' })), { name: 'secret', private: true }],
  });
  server = await startTestServer({ home: built.home });
  before = await snapshotHome(built.home);
}, 60_000);

afterAll(async () => {
  await server?.close();
  await removeTempDir(dir);
});

const rid = (name: string): Rid => repositoryByName(built, name).rid;
const api = (path: string): Promise<JsonResponse> => getJson(`${server.baseUrl}/api/v1${path}`);
const head = (name: string): string => repositoryByName(built, name).head;

/** Blob paths and oids at the head of a repository, read with git itself. */
function blobsAtHead(name: string): { path: string; oid: string }[] {
  const { gitDir } = repositoryByName(built, name);
  const listing = execFileSync('git', [`--git-dir=${gitDir}`, 'ls-tree', '-r', '-z', head(name)], { encoding: 'utf8' });
  return listing
    .split('\0')
    .filter((line) => line.includes(' blob '))
    .map((line) => {
      const [meta = '', path = ''] = line.split('\t');
      return { path, oid: meta.split(' ')[2] ?? '' };
    });
}

function looseObjectPath(name: string, oid: string): string {
  return join(repositoryByName(built, name).gitDir, 'objects', oid.slice(0, 2), oid.slice(2));
}

/** New log lines since `from`. */
const logsSince = (from: number): string[] => server.logs.slice(from);

/** Every other repository still answers its info, history and root tree. */
async function expectOthersAnswer(except: string): Promise<void> {
  for (const name of REPOS.filter((other) => other !== except && !MOVED.has(other))) {
    for (const path of ['', '/commits', `/tree/${head(name)}/`]) {
      expect([name, path, (await api(`/repos/${rid(name)}${path}`)).status]).toEqual([name, path, 200]);
    }
  }
  expect((await api('/node')).status).toBe(200);
}

/** The loose object file of the `index`th blob at the head of `loose`, its bytes and its blob URL. */
async function looseBlobAtHead(index: number): Promise<{ file: string; bytes: Buffer; url: string }> {
  const blob = blobsAtHead('loose')[index];
  if (blob === undefined) throw new Error('no blob');
  const file = looseObjectPath('loose', blob.oid);
  return { file, bytes: await readFile(file), url: `/repos/${rid('loose')}/blob/${head('loose')}/${blob.path}` };
}

describe('a missing loose object', () => {
  it('answers a plain 500 for a file whose blob was deleted, logs it once, and serves it again once the object is back', async () => {
    const { file, bytes, url } = await looseBlobAtHead(0);
    const from = server.logs.length;
    touch(file);
    await unlink(file);
    try {
      const response = await api(url);
      expect(isPlainError(response)).toBe(true);
      expect([response.status, isPlainError(response)]).toEqual([500, true]);
      const lines = logsSince(from);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`GET /api/v1${url} failed`);
      await expectOthersAnswer('loose');
    } finally {
      await writeFile(file, bytes, { mode: 0o444 });
    }
    expect((await api(url)).status).toBe(200);
  });
});

describe('a corrupt loose object', () => {
  it('answers a plain 500 for a file whose blob holds garbage, logs the request and the complaint of git once each, and recovers once the object is repaired', async () => {
    const { file, bytes, url } = await looseBlobAtHead(1);
    const from = server.logs.length;
    touch(file);
    await writeFile(file, Buffer.from('x\x9c garbage that does not inflate'));
    try {
      const response = await api(url);
      expect([response.status, isPlainError(response)]).toEqual([500, true]);
      // git's stderr and its answer travel on different pipes: the complaint may come second.
      await eventually(async () => logsSince(from).some((line) => /git cat-file for .* reported: .*inflate/.test(line)));
      const lines = logsSince(from);
      expect(lines).toHaveLength(2);
      expect(lines.filter((line) => line.startsWith(`error GET /api/v1${url} failed`))).toHaveLength(1);
      await expectOthersAnswer('loose');
    } finally {
      await writeFile(file, bytes);
    }
    expect((await api(url)).status).toBe(200);
    expect((await api(`/repos/${rid('loose')}/tree/${head('loose')}/`)).status).toBe(200);
  });
});

describe('a truncated pack', () => {
  it('answers plain JSON errors while the pack is cut to a quarter, logs the complaint of git once, keeps the other repositories, and recovers once the pack is restored', async () => {
    const name = 'packed';
    const { gitDir } = repositoryByName(built, name);
    expect((await api(`/repos/${rid(name)}`)).status).toBe(200);
    const packDir = join(gitDir, 'objects', 'pack');
    const pack = execFileSync('ls', [packDir], { encoding: 'utf8' })
      .split('\n')
      .find((file) => file.endsWith('.pack'));
    if (pack === undefined) throw new Error('no pack');
    const file = join(packDir, pack);
    const bytes = await readFile(file);
    const urls = blobsAtHead(name).map((blob) => `/repos/${rid(name)}/blob/${head(name)}/${blob.path}`);
    const from = server.logs.length;
    touch(file);
    await truncate(file, Math.floor(bytes.length / 4));
    try {
      const statuses: number[] = [];
      for (const url of urls) {
        const response = await api(url);
        expect(response.status === 200 || isPlainError(response)).toBe(true);
        statuses.push(response.status);
      }
      expect(statuses.filter((status) => status !== 200).length).toBeGreaterThan(0);
      // One line per failed request, and git's complaint once.
      const complaint = /git cat-file for .* reported: .*does not match index/;
      await eventually(async () => logsSince(from).some((line) => complaint.test(line)));
      const lines = logsSince(from);
      expect(lines.filter((line) => line.startsWith('error '))).toHaveLength(statuses.filter((status) => status >= 500).length);
      expect(lines.filter((line) => complaint.test(line))).toHaveLength(1);
      await expectOthersAnswer(name);
    } finally {
      await writeFile(file, bytes);
    }
    for (const url of urls) expect([url, (await api(url)).status]).toEqual([url, 200]);
  });
});

describe('a repository removed or renamed while being read', () => {
  it('answers 200 or 404 to requests under way while it is moved away (never a 500), 404 while it is gone, and serves it again once it is back', async () => {
    const name = 'doomed';
    const { gitDir } = repositoryByName(built, name);
    const away = join(built.home, 'storage', '.moved-away');
    const tip = head(name);
    const paths = ['', '/commits', `/tree/${tip}/`, '/remotes', `/commits/${tip}`, `/readme/${tip}`, '/activity', `/blob/${tip}/README.md`];
    const base = `/repos/${rid(name)}`;
    // The JSON API's pages and a raw file: every route that reads the repository its {rid} names.
    const urls = [...paths.map((path) => `${server.baseUrl}/api/v1${base}${path}`), `${server.baseUrl}/raw/${rid(name)}/${tip}/README.md`];
    const from = server.logs.length;
    const statuses: string[] = [];
    // Clients keep asking while the directory goes away at a different moment each round, so
    // some requests pass the access check and then find their reads failing.
    for (let round = 0; round < 12; round += 1) {
      let asking = true;
      const clients = Array.from({ length: 6 }, async (_, client) => {
        for (let i = client; asking; i += 1) {
          const url = urls[i % urls.length] ?? '';
          const response = await getJson(url);
          statuses.push(response.status === 200 || (response.status === 404 && isPlainError(response)) ? 'ok' : `${response.status} ${url}`);
        }
      });
      await pause(15 + 2 * round);
      await rename(gitDir, away);
      try {
        await pause(10);
        asking = false;
        await Promise.all(clients);
        for (const url of urls) expect([url, (await getJson(url)).status]).toEqual([url, 404]);
        if (round === 0) await expectOthersAnswer(name);
      } finally {
        asking = false;
        await rename(away, gitDir);
      }
      // The storage index notices the directory again within its freshness bound (about 1 s).
      await eventually(async () => (await api(base)).status === 200);
    }
    expect(statuses.filter((status) => status !== 'ok')).toEqual([]);
    expect(statuses.length).toBeGreaterThan(100);
    for (const url of urls) expect([url, (await getJson(url)).status]).toEqual([url, 200]);
    // Gone while being read is not a failure of the server: nothing logged as one.
    expect(logsSince(from).filter((line) => line.includes('failed (request'))).toEqual([]);
  }, 60_000);

  it('answers a repository that went away after its check as absent, never as an info without its project', async () => {
    // The window the crawl above can hit: the access check passed, then the directory went
    // away before the head was read. radicle-httpd leaves the project entry out when the head
    // cannot be computed, which the explorer rejects; a repository that is gone is absent.
    const { gitDir } = repositoryByName(built, 'vanishing');
    const away = join(built.home, 'storage', '.vanished');
    const access = server.server.app.get(RepositoryAccess);
    const repository = await access.openPublicRid(rid('vanishing'));
    const infos = server.server.app.get(RepoInfoService);
    await rename(gitDir, away);
    try {
      await expect(infos.repoInfo(repository)).rejects.toBeInstanceOf(NotFoundError);
    } finally {
      await rename(away, gitDir);
    }
    // The check let the stale reader go; the repository is opened again once it is back,
    // which the storage index may have to notice first (its watcher can see the move out
    // before the move back, within its freshness bound of about 1 s).
    await eventually(async () => (await api(`/repos/${rid('vanishing')}`)).status === 200);
    const info = await infos.repoInfo(await access.openPublicRid(rid('vanishing')));
    expect(Object.keys(info.payloads)).toContain('xyz.forge.project');
  });
});

describe('refs moving during a crawl', () => {
  it('answers every request with 200 while the default branch is rewritten back and forth', async () => {
    const name = 'moving';
    const repo = repositoryByName(built, name);
    const commits = (await api(`/repos/${rid(name)}/commits`)).body as { id: string }[];
    const older = commits[commits.length - 1]?.id ?? '';
    const branch = `refs/heads/${repo.defaultBranch}`;
    for (const ref of [branch, namespacedRef(built.nid, branch)]) touch(join(repo.gitDir, ref));
    const from = server.logs.length;
    let moving = true;
    const mover = (async () => {
      for (let i = 0; moving; i += 1) {
        const oid = (i % 2 === 0 ? older : repo.head) as typeof repo.head;
        await updateRefs(repo.gitDir, [
          { name: branch, oid },
          { name: namespacedRef(built.nid, branch), oid },
        ]);
      }
    })();
    const paths = ['', '/commits', '/remotes', `/remotes/${built.nid}`, '/activity', '/readme/' + repo.head];
    const responses: JsonResponse[] = [];
    try {
      for (let round = 0; round < 10; round += 1) {
        responses.push(...(await Promise.all(paths.map((path) => api(`/repos/${rid(name)}${path}`)))));
      }
    } finally {
      moving = false;
      await mover;
      await updateRefs(repo.gitDir, [
        { name: branch, oid: repo.head },
        { name: namespacedRef(built.nid, branch), oid: repo.head },
      ]);
    }
    expect(responses.map((response) => response.status).filter((status) => status !== 200)).toEqual([]);
    expect(logsSince(from)).toEqual([]);
  });
});

describe('a git cat-file process that dies', () => {
  it('answers the next request after its cat-file process is killed, from a new process, and logs the restart once', async () => {
    const name = 'steady';
    const { gitDir } = repositoryByName(built, name);
    // Objects the files hold are read in process; an absent one is git's to confirm.
    const absent = (digit: string) => api(`/repos/${rid(name)}/commits/${digit.repeat(40)}`);
    expect((await api(`/repos/${rid(name)}/tree/${head(name)}/`)).status).toBe(200);
    expect((await absent('1')).status).toBe(404);
    const pids = childProcesses(['cat-file', `--git-dir=${gitDir}`]);
    expect(pids).toHaveLength(1);
    const from = server.logs.length;
    process.kill(pids[0] ?? 0, 'SIGKILL');
    expect((await absent('2')).status).toBe(404);
    const blob = blobsAtHead(name)[0];
    const response = await api(`/repos/${rid(name)}/blob/${head(name)}/${blob?.path ?? ''}`);
    expect(response.status).toBe(200);
    const now = childProcesses(['cat-file', `--git-dir=${gitDir}`]);
    expect(now).toHaveLength(1);
    expect(now).not.toEqual(pids);
    const lines = logsSince(from);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/cat-file .*exited unexpectedly/);
  });
});

describe('the node home after every fault', () => {
  it('was not written by the server', async () => {
    const after = await snapshotHome(built.home);
    // SQLite's own WAL protocol: a reader of a WAL database (node.db, as the node writes it)
    // creates the empty `-wal` and the `-shm` index when the node is not running to hold them.
    touched.push('node/node.db-wal', 'node/node.db-shm');
    expect(homeChanges(before, after, touched)).toEqual([]);
  });
});
