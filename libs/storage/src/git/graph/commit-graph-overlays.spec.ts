import { readFileSync } from 'node:fs';
import { mkdir, readdir, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import { ProcessFailedError, ridDirectoryName, ridFromOid } from '@forge-httpd/identity';
import { Storage } from '../../home/storage.js';
import { CommitGraphOverlays } from './commit-graph-overlays.js';
import { git, gitRaw, makeTempDir, removeTempDir } from '../write/git-cli.testing.js';
import type { GitRepository } from '../git-repository.js';
import { buildTrickyHistory, TRICKY_PATHS } from '../history/history-index.testing.js';
import type { Oid } from '../objects/oid.js';
import { openGitRepository } from '../open-git-repository.js';
import { runGit } from '../processes/run-git.js';
import { StorageRuntime } from '../storage-runtime.js';

const runtime = new StorageRuntime();

let tmp: string;

beforeAll(async () => {
  tmp = await makeTempDir();
});
afterAll(async () => {
  await removeTempDir(tmp);
});

/** Every file under `dir` with its size and modification time, to show nothing was written there. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath ?? entry.path, entry.name));
  const described = await Promise.all(files.map(async (file) => `${file} ${(await stat(file)).size} ${(await stat(file)).mtimeMs}`));
  return described.sort();
}

/** `git commit-graph verify` on our object directory: git accepts it only as one of the repository's. */
function verifyThroughServerGit(gitDir: string, objectDir: string): Promise<unknown> {
  return runGit({ processes: runtime.processes, gitDir, args: ['commit-graph', 'verify', `--object-dir=${objectDir}`] });
}

const graphFile = (root: string, name: string): string => path.join(root, name, 'info', 'commit-graph');
const exists = (file: string): Promise<boolean> =>
  stat(file).then(
    () => true,
    () => false,
  );

describe('CommitGraphOverlays', () => {
  it('writes a commit-graph for a packed repository without one into its own directory, and git reads it', async () => {
    const { gitDir } = await buildTrickyHistory(path.join(tmp, 'written'), { seed: 3, commits: 60 });
    const root = path.join(tmp, 'written-graphs');
    const storageBefore = await listFiles(gitDir);
    const overlays = new CommitGraphOverlays({ processes: runtime.processes, root, minObjects: 1 });
    overlays.consider('repo', gitDir);
    await overlays.idle();
    expect(await exists(graphFile(root, 'repo'))).toBe(true);
    expect(overlays.stats()).toEqual({ written: 1, inUse: 1 });
    // The storage is only read.
    expect(await listFiles(gitDir)).toEqual(storageBefore);
    await expect(verifyThroughServerGit(gitDir, path.join(root, 'repo'))).resolves.toBeDefined();
    await overlays.close();
    // Closed: git processes no longer read it.
    await expect(verifyThroughServerGit(gitDir, path.join(root, 'repo'))).rejects.toBeInstanceOf(ProcessFailedError);
  });

  it('leaves alone a repository whose own commit-graph has Bloom filters, and one with fewer objects than the bound', async () => {
    const own = await buildTrickyHistory(path.join(tmp, 'own'), { seed: 4, commits: 20 });
    gitRaw(own.gitDir, ['commit-graph', 'write', '--reachable', '--changed-paths']);
    const small = await buildTrickyHistory(path.join(tmp, 'small'), { seed: 5, commits: 60 });
    const objects = Number(/in-pack: (\d+)/.exec(gitRaw(small.gitDir, ['count-objects', '-v']).toString())?.[1]);
    expect(objects).toBeGreaterThan(0);
    const root = path.join(tmp, 'left-alone-graphs');
    const overlays = new CommitGraphOverlays({ processes: runtime.processes, root, minObjects: objects + 1 });
    overlays.consider('own', own.gitDir);
    overlays.consider('small', small.gitDir);
    await overlays.idle();
    expect(overlays.stats()).toEqual({ written: 0, inUse: 0 });
    expect(await exists(graphFile(root, 'own'))).toBe(false);
    expect(await exists(graphFile(root, 'small'))).toBe(false);
    await overlays.close();
  });

  it('puts one with Bloom filters before a storage graph without them, for reading git only, and stops once the storage has them', async () => {
    const { gitDir, commits } = await buildTrickyHistory(path.join(tmp, 'before'), { seed: 12, commits: 60 });
    gitRaw(gitDir, ['commit-graph', 'write', '--reachable']);
    const root = path.join(tmp, 'before-graphs');
    const storageBefore = await listFiles(gitDir);
    const overlays = new CommitGraphOverlays({ processes: runtime.processes, root, minObjects: 1 });
    // Opened: nothing written (the start-up pass writes it, away from the first pages).
    overlays.consider('repo', gitDir);
    await overlays.idle();
    expect(overlays.stats()).toEqual({ written: 0, inUse: 0 });
    overlays.consider('repo', gitDir, 'pass');
    await overlays.idle();
    expect(overlays.stats()).toEqual({ written: 1, inUse: 1 });
    expect(await listFiles(gitDir)).toEqual(storageBefore);
    expect(runtime.processes.overlays.environment(gitDir)).toEqual({
      GIT_OBJECT_DIRECTORY: path.join(root, 'repo'),
      GIT_ALTERNATE_OBJECT_DIRECTORIES: path.join(gitDir, 'objects'),
    });
    // A clone's upload-pack keeps the storage's own object directory first; the in-process
    // reader keeps the storage's graph.
    expect(runtime.processes.overlays.environment(gitDir, 'packing')).toEqual({});
    expect(runtime.processes.overlays.objectDirectory(gitDir)).toBeUndefined();

    // git, given the server's environment for this repository, skips commits by their filters.
    const tip = commits[commits.length - 1] as Oid;
    const definitelyNot = (env: Record<string, string>): number | undefined => {
      let skipped: number | undefined;
      for (const [at, file] of TRICKY_PATHS.entries()) {
        const trace = path.join(tmp, `trace-${Object.keys(env).length}-${at}.json`);
        const out = git(gitDir, ['rev-list', '-1', tip, '--', file], { env: { ...env, GIT_TRACE2_EVENT: trace } });
        expect(out).toBe(git(gitDir, ['rev-list', '-1', tip, '--', file]));
        const events = readFileSync(trace, 'utf8')
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as { category?: string; value?: { definitely_not: number } });
        const statistics = events.find((event) => event.category === 'bloom')?.value;
        if (statistics !== undefined) skipped = (skipped ?? 0) + statistics.definitely_not;
      }
      return skipped;
    };
    expect(definitelyNot({})).toBeUndefined();
    expect(definitelyNot(runtime.processes.overlays.environment(gitDir))).toBeGreaterThan(0);

    // Opened again after a restart: the one written is used at once.
    await overlays.close();
    const restarted = new CommitGraphOverlays({ processes: runtime.processes, root, minObjects: 1 });
    restarted.consider('repo', gitDir);
    expect(restarted.stats()).toEqual({ written: 0, inUse: 1 });
    expect(runtime.processes.overlays.environment(gitDir)['GIT_OBJECT_DIRECTORY']).toBe(path.join(root, 'repo'));

    // The storage's graph gains filters (gc with changed paths): ours is no longer read.
    gitRaw(gitDir, ['commit-graph', 'write', '--reachable', '--changed-paths']);
    restarted.consider('repo', gitDir);
    expect(restarted.stats().inUse).toBe(0);
    expect(runtime.processes.overlays.environment(gitDir)).toEqual({});
    await restarted.close();
  });

  it('uses an existing one at once, and writes it again only after a new pack, once it is old enough', async () => {
    const { gitDir } = await buildTrickyHistory(path.join(tmp, 'again'), { seed: 6, commits: 30 });
    const root = path.join(tmp, 'again-graphs');
    const first = new CommitGraphOverlays({ processes: runtime.processes, root, minObjects: 1 });
    first.consider('repo', gitDir);
    await first.idle();
    await first.close();
    const writtenAt = (await stat(graphFile(root, 'repo'))).mtimeMs;

    // A restart: used before anything was looked at, not written again while no pack is newer.
    const later = new CommitGraphOverlays({ processes: runtime.processes, root, minObjects: 1, now: () => Date.now() + 3_600_000 });
    later.consider('repo', gitDir);
    expect(later.stats()).toEqual({ written: 0, inUse: 1 });
    await later.idle();
    expect(later.stats()).toEqual({ written: 0, inUse: 1 });
    await later.close();

    // A fetch brings a new pack (kept as a pack however small): written again once the graph
    // is older than the refresh time.
    const tip = gitRaw(gitDir, ['rev-parse', 'refs/heads/b1']).toString().trim();
    gitRaw(gitDir, ['-c', 'fastimport.unpackLimit=0', 'fast-import', '--quiet', '--date-format=raw'], {
      input: `commit refs/heads/fetched\ncommitter A <a@example.com> 2000000000 +0000\ndata 0\nfrom ${tip}\nM 100644 inline new.txt\ndata 4\nnew\n\n`,
    });
    const soon = new CommitGraphOverlays({ processes: runtime.processes, root, minObjects: 1, refreshMs: 3_600_000 });
    soon.consider('repo', gitDir);
    await soon.idle();
    expect(soon.stats().written).toBe(0);
    await soon.close();
    const due = new CommitGraphOverlays({ processes: runtime.processes, root, minObjects: 1, refreshMs: 0 });
    due.consider('repo', gitDir);
    await due.idle();
    expect(due.stats().written).toBe(1);
    expect((await stat(graphFile(root, 'repo'))).mtimeMs).toBeGreaterThan(writtenAt);
    const fetched = gitRaw(gitDir, ['rev-parse', 'refs/heads/fetched']).toString().trim();
    const repo = openGitRepository(gitDir, { runtime });
    expect(await repo.refsContaining(tip as Oid, ['refs/heads/'])).toContain('refs/heads/fetched');
    expect(await repo.isAncestor(tip as Oid, fetched as Oid)).toBe(true);
    await repo.close();
    await due.close();
  });

  it('does nothing with a directory git cannot be given (relative, or with a colon)', async () => {
    const { gitDir } = await buildTrickyHistory(path.join(tmp, 'unusable'), { seed: 7, commits: 10 });
    const lines: string[] = [];
    for (const root of ['relative/graphs', path.join(tmp, 'a:b')]) {
      const overlays = new CommitGraphOverlays({ processes: runtime.processes, root, minObjects: 1, log: (line) => lines.push(line) });
      overlays.consider('repo', gitDir);
      await overlays.idle();
      expect(overlays.stats()).toEqual({ written: 0, inUse: 0 });
      await overlays.close();
    }
    expect(lines).toHaveLength(2);
    expect(await exists(path.join(tmp, 'a:b'))).toBe(false);
  });
});

describe('Storage.prepareCommitGraphs', () => {
  it('writes one for every big repository in storage before any is opened, one after the other', async () => {
    const storageDir = path.join(tmp, 'prepared', 'storage');
    await mkdir(storageDir, { recursive: true });
    const names: string[] = [];
    for (const seed of [9, 10, 11]) {
      const { gitDir } = await buildTrickyHistory(path.join(tmp, 'prepared'), { seed, commits: 60 });
      const name = ridDirectoryName(ridFromOid(String(seed).padStart(40, '0')));
      await rename(gitDir, path.join(storageDir, name));
      names.push(name);
    }
    const root = path.join(tmp, 'prepared-graphs');
    const storage = new Storage(storageDir, 'forge', { runtime, commitGraphDir: root, commitGraphMinObjects: 1 });
    expect(await storage.prepareCommitGraphs()).toBe(3);
    for (const name of names) expect(await exists(graphFile(root, name))).toBe(true);
    await storage.close();
    const without = new Storage(storageDir, 'forge', { runtime });
    expect(await without.prepareCommitGraphs()).toBe(0);
    await without.close();
  });
});

describe('history answers with a commit-graph of ours equal those without (random history with merges, equal times, clock skew)', () => {
  let plain: { gitDir: string; commits: Oid[] };
  let graphed: { gitDir: string; commits: Oid[] };
  /** With a storage graph without Bloom filters, ours placed before it. */
  let filtered: { gitDir: string; commits: Oid[] };
  let overlays: CommitGraphOverlays;

  beforeAll(async () => {
    plain = await buildTrickyHistory(path.join(tmp, 'plain'), { seed: 8, commits: 150 });
    graphed = await buildTrickyHistory(path.join(tmp, 'graphed'), { seed: 8, commits: 150 });
    filtered = await buildTrickyHistory(path.join(tmp, 'filtered'), { seed: 8, commits: 150 });
    gitRaw(filtered.gitDir, ['commit-graph', 'write', '--reachable']);
    overlays = new CommitGraphOverlays({ processes: runtime.processes, root: path.join(tmp, 'answers-graphs'), minObjects: 1 });
    overlays.consider('repo', graphed.gitDir);
    overlays.consider('filtered', filtered.gitDir, 'pass');
    await overlays.idle();
  }, 60_000);
  afterAll(() => overlays.close());

  /** The same questions on a fresh reader of each repository (no in-memory index answers for git). */
  async function all<T>(ask: (repo: GitRepository) => Promise<T>): Promise<[T, T, T]> {
    const [a, b, c] = [
      openGitRepository(plain.gitDir, { runtime }),
      openGitRepository(graphed.gitDir, { runtime }),
      openGitRepository(filtered.gitDir, { runtime }),
    ];
    try {
      return [await ask(a), await ask(b), await ask(c)];
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  }

  it('is the same history, and the graphs are in use', () => {
    expect(graphed.commits).toEqual(plain.commits);
    expect(filtered.commits).toEqual(plain.commits);
    expect(overlays.stats()).toEqual({ written: 2, inUse: 2 });
    expect(runtime.processes.overlays.environment(filtered.gitDir)['GIT_OBJECT_DIRECTORY']).toBe(path.join(tmp, 'answers-graphs', 'filtered'));
  });

  it('answers branch containment, ancestry and merge bases the same', async () => {
    const heads = gitRaw(plain.gitDir, ['for-each-ref', '--format=%(objectname)', 'refs/heads/']).toString().trim().split('\n') as Oid[];
    const picked = plain.commits.filter((_, at) => at % 9 === 0);
    const ask = async (repo: GitRepository) => {
      const answers: unknown[] = [];
      for (const commit of picked) {
        answers.push(await repo.refsContaining(commit, ['refs/heads/']));
        answers.push(await repo.isAncestor(commit, heads[0] as Oid));
        answers.push(await repo.mergeBase(commit, heads[heads.length - 1] as Oid));
      }
      return answers;
    };
    const [a, b, c] = await all(ask);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
  });

  it('walks history, counts, and finds the last commit touching each path the same', async () => {
    const tips = plain.commits.filter((_, at) => at % 25 === 24);
    const ask = async (repo: GitRepository) => {
      const answers: unknown[] = [];
      for (const from of tips) {
        answers.push((await repo.listCommitOids({ from, skip: 3, maxCount: 40 })).toArray().join());
        answers.push(await repo.countCommits(from));
        answers.push(await repo.commitTimes(from, 0));
        for (const file of TRICKY_PATHS) answers.push(await repo.lastCommitTouching({ from, path: file }));
      }
      return answers;
    };
    const [a, b, c] = await all(ask);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
  });
});
