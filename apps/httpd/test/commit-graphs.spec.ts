import { cp, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type Rid, ridDirectoryName } from '@forge-httpd/identity';
import { type BuiltHome, repositoryByName } from '@forge-httpd/builder';
import { execGit, type ScratchCommit } from '@forge-httpd/builder/scratch';
import { COMMIT_GRAPHS_DIR } from '../src/server.js';
import { buildScratchHome, getJson, makeTempDir, removeTempDir, runGitClient, startTestServer, type TestServer } from './support/index.js';
import { mergedHistory } from './support/merged-history.js';

// A node's storage without a commit-graph (a repository seeded by one fetch): the server keeps
// one of its own in its cache directory, and every answer stays what it is without one.

const T = 1_700_000_000;

/** 60 commits: two branches merged, a clock-skewed commit, files changed at different depths. */
function historyCommits(): ScratchCommit[] {
  return mergedHistory({
    time: T,
    initial: [
      { path: 'README.md', content: '# Graphs\n' },
      { path: 'LICENSE', content: 'MIT\n' },
    ],
    skewPath: 'skew.txt',
    counters: 55,
    deepEvery: 3,
  });
}

let dir: string;
let built: BuiltHome;
let history: string[];
let gitDir: string;
let storageBefore: string[];
const cacheDir = (): string => join(dir, 'cache');

async function listFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath ?? entry.path, entry.name));
  return (await Promise.all(files.map(async (file) => `${file} ${(await stat(file)).mtimeMs}`))).sort();
}

async function waitForFile(file: string, timeoutMs: number): Promise<boolean> {
  for (const started = Date.now(); Date.now() - started < timeoutMs;) {
    if (
      await stat(file).then(
        () => true,
        () => false,
      )
    )
      return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

beforeAll(async () => {
  dir = await makeTempDir();
  ({ built, ids: history } = await buildScratchHome(dir, { name: 'history', commits: historyCommits(), seed: 'c1'.repeat(32), time: T }));
  gitDir = join(built.home, 'storage', ridDirectoryName(rid()));
  // As one fetch leaves it: every object in one pack, no commit-graph.
  await execGit({ gitDir, args: ['repack', '-a', '-d', '-q'] });
  await rm(join(gitDir, 'objects', 'info', 'commit-graph'), { force: true });
  await rm(join(gitDir, 'objects', 'info', 'commit-graphs'), { recursive: true, force: true });
  storageBefore = await listFiles(gitDir);
}, 60_000);
afterAll(async () => {
  await removeTempDir(dir);
});

const rid = (): Rid => repositoryByName(built, 'history').rid;
const graphFile = (): string => join(cacheDir(), COMMIT_GRAPHS_DIR, ridDirectoryName(rid()), 'info', 'commit-graph');

/** Pages whose answers come from history questions git answers from a commit-graph. */
function historyPages(): string[] {
  const head = history[history.length - 1] as string;
  const pages = ['/commits', `/commits?parent=${history[30]}`, `/commits?parent=${head}&page=1&perPage=7`, '/activity'];
  for (const at of [0, 1, 3, 4, 20, 59]) pages.push(`/commits/${history[at]}`);
  pages.push(`/diff/${history[2]}/${history[40]}`, `/diff/${history[1]}/${head}`);
  for (const file of ['README.md', 'LICENSE', 'side/a.txt', 'deep/er/counter.txt']) pages.push(`/blob/${head}/${file}`);
  pages.push(`/tree/${head}/`, `/tree/${head}/deep`, `/readme/${head}`);
  return pages;
}

async function answers(server: TestServer): Promise<Record<string, unknown>> {
  const byPage: Record<string, unknown> = {};
  for (const page of historyPages()) {
    const response = await getJson(`${server.baseUrl}/api/v1/repos/${rid()}${page}`);
    byPage[page] = { status: response.status, body: response.body };
  }
  return byPage;
}

describe('commit-graphs of our own for storage without one', () => {
  it('writes one into the cache directory after a repository is first read, never into storage', async () => {
    const server = await startTestServer({ home: built.home, cacheDir: cacheDir(), commitGraphMinObjects: 1 });
    try {
      const page = await getJson(`${server.baseUrl}/api/v1/repos/${rid()}/commits/${history[3]}`);
      expect(page.status).toBe(200);
      expect(await waitForFile(graphFile(), 20_000)).toBe(true);
    } finally {
      await server.close();
    }
    expect(await listFiles(gitDir)).toEqual(storageBefore);
  }, 40_000);

  it('answers every history page after a restart exactly as a server without it', async () => {
    expect(
      await stat(graphFile()).then(
        () => true,
        () => false,
      ),
    ).toBe(true);
    const withGraph = await startTestServer({ home: built.home, cacheDir: cacheDir(), commitGraphMinObjects: 1 });
    const without = await startTestServer({ home: built.home });
    try {
      const [a, b] = [await answers(withGraph), await answers(without)];
      expect(Object.values(a).every((answer) => (answer as { status: number }).status === 200)).toBe(true);
      expect(a).toEqual(b);
    } finally {
      await Promise.all([withGraph.close(), without.close()]);
    }
    expect(await listFiles(gitDir)).toEqual(storageBefore);
  }, 60_000);

  it('serves a clone that reads the commit-graph exactly as one without it', async () => {
    const withGraph = await startTestServer({ home: built.home, cacheDir: cacheDir(), commitGraphMinObjects: 1 });
    try {
      // Opened (and its graph taken into use) before the clone asks.
      expect((await getJson(`${withGraph.baseUrl}/api/v1/repos/${rid()}`)).status).toBe(200);
      const clone = join(dir, 'clone.git');
      await runGitClient(['clone', '--quiet', '--bare', `${withGraph.baseUrl}/${rid()}.git`, clone], dir);
      const head = await runGitClient(['rev-parse', 'HEAD'], clone);
      expect(head.stdout.trim()).toBe(history[history.length - 1]);
      const count = await runGitClient(['rev-list', '--count', '--all'], clone);
      expect(Number(count.stdout.trim())).toBe(history.length);
      await runGitClient(['fsck', '--strict'], clone);
    } finally {
      await withGraph.close();
    }
    expect(await listFiles(gitDir)).toEqual(storageBefore);
  }, 40_000);

  it('keeps none for a repository below the default bound', async () => {
    const server = await startTestServer({ home: built.home, cacheDir: join(dir, 'cache-default') });
    try {
      expect((await getJson(`${server.baseUrl}/api/v1/repos/${rid()}/commits/${history[3]}`)).status).toBe(200);
    } finally {
      await server.close();
    }
    // The default bound (5,000 packed objects) is far above this repository's ~200.
    expect(
      await stat(join(dir, 'cache-default', COMMIT_GRAPHS_DIR, ridDirectoryName(rid()), 'info', 'commit-graph')).then(
        () => true,
        () => false,
      ),
    ).toBe(false);
  }, 40_000);
});

describe("the storage's own commit-graph, read in process", () => {
  it('answers every history page as the same storage without one, with a second branch', async () => {
    const [withOwn, without] = [join(dir, 'home-own-graph'), join(dir, 'home-no-graph')];
    for (const home of [withOwn, without]) {
      await cp(built.home, home, { recursive: true });
      await execGit({ gitDir: join(home, 'storage', ridDirectoryName(rid())), args: ['update-ref', 'refs/heads/feature', history[20] as string] });
    }
    // Written by git itself, as `git gc` leaves it in a node's storage.
    await execGit({ gitDir: join(withOwn, 'storage', ridDirectoryName(rid())), args: ['commit-graph', 'write', '--reachable'] });
    const [a, b] = [await startTestServer({ home: withOwn }), await startTestServer({ home: without })];
    try {
      const [withGraph, withoutGraph] = [await answers(a), await answers(b)];
      expect(withGraph).toEqual(withoutGraph);
      const branchesOf = (at: number): unknown => (withGraph[`/commits/${history[at]}`] as { body: { branches: string[] } }).body.branches;
      expect(branchesOf(3)).toEqual(['refs/heads/feature', 'refs/heads/main']);
      expect(branchesOf(59)).toEqual(['refs/heads/main']);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  }, 60_000);
});

describe('a commit-graph of ours with Bloom filters, before a storage graph without them', () => {
  it('is written, read first by git, and every history page and a clone answer as without it', async () => {
    const home = join(dir, 'home-gc-graph');
    await cp(built.home, home, { recursive: true });
    const storedGitDir = join(home, 'storage', ridDirectoryName(rid()));
    // As `git gc` leaves a node's storage: a commit-graph without changed-path filters.
    await execGit({ gitDir: storedGitDir, args: ['commit-graph', 'write', '--reachable'] });
    const before = await listFiles(storedGitDir);
    const cache = join(dir, 'cache-bloom');
    const ours = join(cache, COMMIT_GRAPHS_DIR, ridDirectoryName(rid()), 'info', 'commit-graph');
    const first = await startTestServer({ home, cacheDir: cache, commitGraphMinObjects: 1 });
    try {
      // Opening the repository writes nothing (that write would share the cores with its first
      // pages); the background pass the server runs after start-up does.
      expect((await getJson(`${first.baseUrl}/api/v1/repos/${rid()}/commits/${history[3]}`)).status).toBe(200);
      expect(await waitForFile(ours, 500)).toBe(false);
      expect(await first.server.home.storage.prepareCommitGraphs()).toBeGreaterThan(0);
      expect(await waitForFile(ours, 20_000)).toBe(true);
    } finally {
      await first.close();
    }
    // After a restart it is used at once.
    const [withOurs, plain] = [await startTestServer({ home, cacheDir: cache, commitGraphMinObjects: 1 }), await startTestServer({ home })];
    try {
      const [a, b] = [await answers(withOurs), await answers(plain)];
      expect(Object.values(a).every((answer) => (answer as { status: number }).status === 200)).toBe(true);
      expect(a).toEqual(b);
      const clone = join(dir, 'clone-bloom.git');
      await runGitClient(['clone', '--quiet', '--bare', `${withOurs.baseUrl}/${rid()}.git`, clone], dir);
      expect(Number((await runGitClient(['rev-list', '--count', '--all'], clone)).stdout.trim())).toBe(history.length);
      await runGitClient(['fsck', '--strict'], clone);
    } finally {
      await Promise.all([withOurs.close(), plain.close()]);
    }
    expect(await listFiles(storedGitDir)).toEqual(before);
  }, 60_000);
});
