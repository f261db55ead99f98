import { readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Rid, ridDirectoryName } from '@forge-httpd/identity';
import { type Oid, readGitProcessCounts, Storage, StorageRuntime } from '@forge-httpd/storage';
import { commitChangesSize, storedCounts } from '@forge-httpd/storage/testing';
import { type BuiltHome, buildNodeHome, repositoryByName } from '@forge-httpd/builder';
import { type ScratchCommit, writeScratchHistory } from '@forge-httpd/builder/scratch';
import { LAST_COMMITS_DIR } from '../src/server.js';
import { ABSENT_RID, getJson, makeTempDir, removeTempDir, startTestServer, type TestServer } from './support/index.js';
import { mergedHistory } from './support/merged-history.js';

// The last-commit-per-path index behind blob, tree and readme pages is kept in the server's
// cache directory: after a restart it is read back from there, not from git, and every page
// answers as a server that never kept one.

const T = 1_700_000_000;

/** 80 commits: a merged side branch, a clock-skewed commit, files changed at different depths and rarely. */
function historyCommits(): ScratchCommit[] {
  return mergedHistory({
    time: T,
    initial: [
      { path: 'README.md', content: '# Kept\n' },
      { path: 'LICENSE', content: 'MIT\n' },
      { path: 'docs/guide/intro.md', content: 'intro\n' },
    ],
    skewPath: 'docs/guide/skew.md',
    counters: 75,
    deepEvery: 4,
  });
}

const FILES = ['README.md', 'LICENSE', 'docs/guide/intro.md', 'docs/guide/skew.md', 'side/a.txt', 'main.txt', 'deep/er/counter.txt', 'counter.txt'];

let dir: string;
let built: BuiltHome;
let history: string[];
const rid = (): Rid => repositoryByName(built, 'history').rid;
const cacheDir = (): string => join(dir, 'cache');
const keptFile = (): string => join(cacheDir(), LAST_COMMITS_DIR, `${ridDirectoryName(rid())}.bin`);
const commandsSpawned = (): number => readGitProcessCounts().command.spawned;

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  for (const started = Date.now(); Date.now() - started < timeoutMs;) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

/** Blob pages of every file at several commits, tree pages of folders, and readme pages. */
function pages(): string[] {
  const list: string[] = [];
  for (const at of [10, 40, history.length - 1]) {
    const commit = history[at] as string;
    for (const file of FILES) list.push(`/blob/${commit}/${file}`);
    list.push(`/tree/${commit}/`, `/tree/${commit}/docs/guide`, `/tree/${commit}/deep`, `/readme/${commit}`);
  }
  return list;
}

async function answers(server: TestServer, list: readonly string[]): Promise<Record<string, unknown>> {
  const byPage: Record<string, unknown> = {};
  for (const page of list) {
    const response = await getJson(`${server.baseUrl}/api/v1/repos/${rid()}${page}`);
    byPage[page] = { status: response.status, body: response.body };
  }
  return byPage;
}

/** Asks one blob page (git answers it; the index is then prepared) and waits until blob pages spawn no git command. */
async function firstPageThenIndexed(server: TestServer): Promise<number> {
  const head = history[history.length - 1] as string;
  const before = commandsSpawned();
  expect((await getJson(`${server.baseUrl}/api/v1/repos/${rid()}/blob/${head}/LICENSE`)).status).toBe(200);
  const indexed = await waitFor(async () => {
    const at = commandsSpawned();
    await getJson(`${server.baseUrl}/api/v1/repos/${rid()}/blob/${head}/main.txt`);
    return commandsSpawned() === at;
  }, 20_000);
  expect(indexed).toBe(true);
  return commandsSpawned() - before;
}

beforeAll(async () => {
  dir = await makeTempDir();
  history = await writeScratchHistory(join(dir, 'history.git'), historyCommits());
  built = await buildNodeHome({
    home: join(dir, 'home'),
    seed: 'c2'.repeat(32),
    alias: 'seed',
    time: T,
    repos: [
      { name: 'history', history: { kind: 'import', from: join(dir, 'history.git'), sourceRef: 'refs/heads/master' } },
      { name: 'second', history: { kind: 'import', from: join(dir, 'history.git'), sourceRef: 'refs/heads/master' } },
    ],
  });
}, 60_000);
afterAll(async () => {
  await removeTempDir(dir);
});

describe('last-commit indexes kept in the cache directory', () => {
  it('writes the index of a history it read into the cache directory, and nothing else into it or storage', async () => {
    const storage = join(built.home, 'storage');
    const storageBefore = await readdir(storage, { recursive: true });
    const server = await startTestServer({ home: built.home, cacheDir: cacheDir(), lastCommitMinCommits: 1 });
    let spawnedWhileBuilding: number;
    try {
      spawnedWhileBuilding = await firstPageThenIndexed(server);
      expect(await waitFor(async () => (await stat(keptFile()).catch(() => null)) !== null, 20_000)).toBe(true);
    } finally {
      await server.close();
    }
    // The page's own question, then the history read from git for the index.
    expect(spawnedWhileBuilding).toBeGreaterThan(1);
    expect(await readdir(join(cacheDir(), LAST_COMMITS_DIR))).toEqual([`${ridDirectoryName(rid())}.bin`]);
    expect(await readdir(storage, { recursive: true })).toEqual(storageBefore);
  }, 60_000);

  it('reads it back after a restart without git, and answers every page as a server that keeps none', async () => {
    const restarted = await startTestServer({ home: built.home, cacheDir: cacheDir(), lastCommitMinCommits: 1 });
    const plain = await startTestServer({ home: built.home });
    try {
      // The history comes from the file: preparing the index (as a first page's miss does) runs no git.
      const head = history[history.length - 1] as Oid;
      const beforeIndex = commandsSpawned();
      await (await restarted.server.home.storage.openRepository(rid()))?.git.indexHistory(head);
      expect(commandsSpawned()).toBe(beforeIndex);
      const list = pages();
      const before = commandsSpawned();
      const kept = await answers(restarted, list);
      expect(commandsSpawned()).toBe(before);
      expect(Object.values(kept).every((answer) => (answer as { status: number }).status === 200)).toBe(true);
      expect(kept).toEqual(await answers(plain, list));
    } finally {
      await Promise.all([restarted.close(), plain.close()]);
    }
  }, 60_000);

  it('reads it back in the start-up pass, so the first page after a restart spawns no git command for it', async () => {
    const restarted = await startTestServer({ home: built.home, cacheDir: cacheDir(), lastCommitMinCommits: 1 });
    try {
      expect(await restarted.server.home.storage.restoreLastCommitIndexes()).toBe(1);
      const head = history[history.length - 1] as string;
      const before = commandsSpawned();
      const page = await getJson(`${restarted.baseUrl}/api/v1/repos/${rid()}/blob/${head}/docs/guide/intro.md`);
      expect(page.status).toBe(200);
      expect((page.body as { lastCommit: { id: string } }).lastCommit.id).toBe(history[0]);
      expect(commandsSpawned()).toBe(before);
    } finally {
      await restarted.close();
    }
  }, 60_000);

  it('reads back in the start-up pass only the most recently written that fit the budget together', async () => {
    const files = join(dir, 'budgeted');
    const head = history[history.length - 1] as Oid;
    const rids = [rid(), repositoryByName(built, 'second').rid];
    const writer = new Storage(join(built.home, 'storage'), 'forge', { runtime: new StorageRuntime(), lastCommitDir: files, lastCommitMinCommits: 1 });
    for (const each of rids) await (await writer.openRepository(each))?.git.indexHistory(head);
    await writer.close();
    const fileOf = (each: Rid): string => join(files, `${ridDirectoryName(each)}.bin`);
    // The second repository's file is the more recent one.
    await utimes(fileOf(rids[0] as Rid), new Date(T * 1000), new Date(T * 1000));
    // Names that are no repository's are left alone: another file, an unfinished write.
    await writeFile(join(files, 'not-a-rid.bin'), await readFile(fileOf(rids[1] as Rid)));
    await writeFile(`${fileOf(rids[1] as Rid)}.123.abcd.tmp`, 'partial');
    // And the index of a repository no longer in storage is removed.
    await writeFile(fileOf(ABSENT_RID), await readFile(fileOf(rids[1] as Rid)));
    const counts = storedCounts(await readFile(fileOf(rids[1] as Rid)));
    const size = commitChangesSize(counts!);

    const reader = new Storage(join(built.home, 'storage'), 'forge', {
      runtime: new StorageRuntime(),
      lastCommitDir: files,
      lastCommitMinCommits: 1,
      lastCommitBytes: Math.floor(size * 1.5),
    });
    try {
      expect(await reader.restoreLastCommitIndexes()).toBe(1);
      expect(await stat(fileOf(ABSENT_RID)).catch(() => null)).toBeNull();
      expect(await stat(join(files, 'not-a-rid.bin')).catch(() => null)).not.toBeNull();
      const spawnedFor = async (each: Rid): Promise<number> => {
        const before = commandsSpawned();
        expect(await (await reader.openRepository(each))?.git.lastCommitTouching({ from: head, path: 'LICENSE' })).toBe(history[0]);
        return commandsSpawned() - before;
      };
      expect(await spawnedFor(rids[1] as Rid)).toBe(0);
      expect(await spawnedFor(rids[0] as Rid)).toBe(1);
    } finally {
      await reader.close();
    }
  }, 60_000);

  it('keeps none below the default size', async () => {
    const other = join(dir, 'cache-default');
    const server = await startTestServer({ home: built.home, cacheDir: other });
    try {
      await firstPageThenIndexed(server);
      await new Promise((resolve) => setTimeout(resolve, 2_500));
    } finally {
      await server.close();
    }
    expect(await stat(join(other, LAST_COMMITS_DIR)).catch(() => null)).toBeNull();
  }, 60_000);
});
