import { InvalidInputError } from '@forge-httpd/identity';
import { cpSync, existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { buildFixture, type Fixture } from '../write/fixture-repo.testing.js';
import { git, gitRaw, makeTempDir, removeTempDir } from '../write/git-cli.testing.js';
import type { GitRepository } from '../git-repository.js';
import { readGitProcessCounts } from '../processes/git-process-counts.js';
import { openGitRepository } from '../open-git-repository.js';
import { EMPTY_TREE_OID, type Oid } from '../objects/oid.js';
import { waitUntil } from '../../wait-until.testing.js';
import { StorageRuntime } from '../storage-runtime.js';

const runtime = new StorageRuntime();

let tmp: string;
let fixture: Fixture;
let repo: GitRepository;

beforeAll(async () => {
  tmp = await makeTempDir();
  fixture = await buildFixture(tmp, true);
  repo = openGitRepository(fixture.gitDir, { runtime });
});
afterAll(async () => {
  await repo.close();
  await removeTempDir(tmp);
});

/** Waits until no git command runs: the reachability index is built by one in the background. */
const backgroundWalksFinished = (): Promise<void> => waitUntil(() => readGitProcessCounts().command.running === 0);

/** The oracle: a full `git rev-list` walk filtered by committer time. */
function fullWalk(from: Oid): { oid: Oid; time: number }[] {
  return git(fixture.gitDir, ['rev-list', '--no-commit-header', '--format=%H %ct', from])
    .split('\n')
    .map((line) => {
      const [oid, time] = line.split(' ');
      return { oid: oid as Oid, time: Number(time) };
    });
}

describe('walkCommits', () => {
  it('returns commits newest first in git log order', async () => {
    const { cli, c5, m, c3, c2, c1 } = fixture.commits;
    const commits = await repo.walkCommits({ from: cli });
    expect(commits.map((commit) => commit.oid)).toEqual([cli, c5, m, c3, c2, c1]);
    expect(commits.map((commit) => commit.oid)).toEqual(fullWalk(cli).map((entry) => entry.oid));
  });

  it('applies skip and maxCount', async () => {
    const { c5, m, c3 } = fixture.commits;
    const commits = await repo.walkCommits({ from: c5, skip: 1, maxCount: 2 });
    expect(commits.map((commit) => commit.oid)).toEqual([m, c3]);
    expect(await repo.walkCommits({ from: c5, maxCount: 0 })).toEqual([]);
  });

  it('leaves out commits reachable from excluded ones', async () => {
    const { c5, m, c3, c1 } = fixture.commits;
    const commits = await repo.walkCommits({ from: c5, exclude: [fixture.commits.c2] });
    expect(commits.map((commit) => commit.oid)).toEqual([c5, m, c3]);
    expect(await repo.walkCommits({ from: c1, exclude: [c1] })).toEqual([]);
  });

  it.each([[{ since: 1500 }], [{ until: 3000 }], [{ since: 1500, until: 4000 }], [{ since: 1500, skip: 1, maxCount: 2 }], [{ since: 9999 }], [{ until: -5 }]])(
    'filters by committer time like a full walk (%j) despite the skewed clock',
    async (filter) => {
      const { since, until, skip = 0, maxCount = Infinity } = filter as Record<string, number | undefined>;
      const expected = fullWalk(fixture.commits.cli)
        .filter((entry) => (since === undefined || entry.time >= since) && (until === undefined || entry.time < until))
        .slice(skip, skip + maxCount)
        .map((entry) => entry.oid);
      const commits = await repo.walkCommits({ from: fixture.commits.cli, ...filter });
      expect(commits.map((commit) => commit.oid)).toEqual(expected);
    },
  );

  it('fails for an unknown start commit', async () => {
    await expect(repo.walkCommits({ from: 'f'.repeat(40) as Oid })).rejects.toMatchObject({ code: 'process-failed' });
  });
});

describe('history statistics', () => {
  it('counts the commits reachable from a commit', async () => {
    expect(await repo.countCommits(fixture.commits.cli)).toBe(6);
    expect(await repo.countCommits(fixture.commits.c1)).toBe(1);
  });

  it('lists distinct author name and email pairs', async () => {
    expect(await repo.listContributors(fixture.commits.cli)).toEqual([{ name: 'Alice', email: 'alice@example.com' }]);
  });

  it('lists only the authors of commits outside an excluded history', async () => {
    const { cli, c1 } = fixture.commits;
    expect(await repo.listContributors(cli, { exclude: [cli] })).toEqual([]);
    expect(await repo.listContributors(cli, { exclude: [c1] })).toEqual([{ name: 'Alice', email: 'alice@example.com' }]);
    await expect(repo.listContributors(cli, { exclude: ['--all' as Oid] })).rejects.toThrow();
  });

  it('lists committer times later than a bound in walk order', async () => {
    expect(await repo.commitTimes(fixture.commits.cli, 1500)).toEqual([5000, 4000, 3000, 2000]);
    expect(await repo.commitTimes(fixture.commits.cli, 0)).toEqual([5000, 1500, 4000, 3000, 2000, 1000]);
  });

  it('gives the committer times of named commits, leaving out what is absent or not a commit', async () => {
    const { cli, c5, c1 } = fixture.commits;
    const tree = git(fixture.gitDir, ['rev-parse', `${c1}^{tree}`]) as Oid;
    const absent = '0123456789abcdef0123456789abcdef01234567' as Oid;
    const times = await repo.commitTimesOf([c1, tree, absent, cli, c5, c1]);
    expect(times).toEqual(
      new Map([
        [c1, 1000],
        [cli, 5000],
        [c5, 1500],
      ]),
    );
    for (const [oid, time] of times) expect(time).toBe((await repo.readCommit(oid))?.committer.time);
    expect(await repo.commitTimesOf([])).toEqual(new Map());
  });

  it('refuses anything but a full id in a list of commits (each line would reach git as an option or revision)', async () => {
    for (const bad of ['--all', 'HEAD', `${fixture.commits.c1}\n--all`, 'not-hex']) {
      await expect(repo.commitTimesOf([fixture.commits.c1, bad as Oid])).rejects.toBeInstanceOf(InvalidInputError);
    }
  });
});

describe('lastCommitTouching', () => {
  it.each([
    ['cli', 'README', 'cli'],
    ['c5', 'README', 'c2'],
    ['cli', 'dir/a.txt', 'c1'],
    ['cli', 'dir/', 'c1'],
    ['cli', '', 'cli'],
    ['c5', 'run.sh', 'c1'],
  ])('from %s finds the newest commit that changed %j (merges followed through the unchanged parent)', async (from, entryPath, expected) => {
    type Name = keyof Fixture['commits'];
    const oid = await repo.lastCommitTouching({ from: fixture.commits[from as Name], path: entryPath });
    expect(oid).toBe(fixture.commits[expected as keyof Fixture['commits']]);
  });

  it.each(['absent', '*', ':(glob)*', '../x', 'dir//a.txt', '--output=x'])('finds nothing for %j', async (entryPath) => {
    expect(await repo.lastCommitTouching({ from: fixture.commits.cli, path: entryPath })).toBeNull();
  });
});

describe('merge bases', () => {
  it('finds the merge base of diverged commits and none for unrelated ones', async () => {
    const { c2, c3, c1 } = fixture.commits;
    expect(await repo.mergeBase(c2, c3)).toBe(c1);
    expect(await repo.mergeBase(c1, c3)).toBe(c1);
    const orphan = git(fixture.gitDir, ['commit-tree', fixture.trees.dir, '-m', 'orphan']) as Oid;
    expect(await repo.mergeBase(orphan, c3)).toBeNull();
  });

  it('tells whether a commit is an ancestor of another', async () => {
    const { c1, c2, c3, m } = fixture.commits;
    expect(await repo.isAncestor(c1, m)).toBe(true);
    expect(await repo.isAncestor(c2, c2)).toBe(true);
    expect(await repo.isAncestor(c3, c2)).toBe(false);
    expect(await repo.isAncestor(m, c1)).toBe(false);
  });

  it('answers the first containment question of a repository in process from its commit-graph, else with one git process', async () => {
    /** The git processes a fresh repository's first containment question starts. */
    const firstQuestionSpawns = async (gitDir: string): Promise<number> => {
      const fresh = openGitRepository(gitDir, { runtime });
      try {
        const before = readGitProcessCounts().command.spawned;
        expect(await fresh.refsContaining(fixture.commits.c1, ['refs/heads/'])).toContain('refs/heads/master');
        return readGitProcessCounts().command.spawned - before;
      } finally {
        await fresh.close();
      }
    };
    expect(existsSync(path.join(fixture.gitDir, 'objects', 'info', 'commit-graph'))).toBe(true);
    expect(await firstQuestionSpawns(fixture.gitDir)).toBe(0);
    // Without one, the ref listings and the index walk wait until git's answer is in (a first
    // page pays for one spawn).
    const copy = path.join(await makeTempDir(), 'no-graph.git');
    try {
      cpSync(fixture.gitDir, copy, { recursive: true });
      rmSync(path.join(copy, 'objects', 'info', 'commit-graph'));
      expect(await firstQuestionSpawns(copy)).toBe(1);
    } finally {
      await removeTempDir(path.dirname(copy));
    }
  });

  it('names the refs whose tip contains a commit, as one ancestry test per ref would', async () => {
    const { c1, c3, m } = fixture.commits;
    const prefixes = ['refs/heads/', 'refs/tags/'];
    // First round: git answers while the reachability index builds; second: the index does.
    for (const commit of [c1, c3, m, c1, c3, m]) {
      if (commit === c1) await backgroundWalksFinished();
      const expected: string[] = [];
      for (const ref of [...(await repo.listRefs('refs/heads/')), ...(await repo.listRefs('refs/tags/'))]) {
        const tip = await repo.peelToCommit(ref.oid);
        if (tip !== null && (await repo.isAncestor(commit, tip))) expected.push(ref.name);
      }
      expect(await repo.refsContaining(commit, prefixes)).toEqual(expected);
    }
    expect(await repo.refsContaining(c1, ['refs/heads/'])).toContain('refs/heads/master');
    expect(await repo.refsContaining(c1, [])).toEqual([]);
    // A new branch is a new set of tips: the next answers include it.
    git(fixture.gitDir, ['update-ref', 'refs/heads/reach-probe', c3]);
    try {
      for (const round of [0, 1]) {
        await backgroundWalksFinished();
        expect(await repo.refsContaining(c3, ['refs/heads/'])).toContain('refs/heads/reach-probe');
        expect(await repo.refsContaining(m, ['refs/heads/'])).not.toContain('refs/heads/reach-probe');
        expect(round).toBeLessThan(2);
      }
    } finally {
      git(fixture.gitDir, ['update-ref', '-d', 'refs/heads/reach-probe']);
    }
    await expect(repo.refsContaining(c1, ['refs/../x/'])).rejects.toThrow(InvalidInputError);
    await expect(repo.refsContaining('--all' as Oid, ['refs/heads/'])).rejects.toThrow(InvalidInputError);
  });
});

describe('diffPatch', () => {
  const cliArgs = ['diff-tree', '-r', '-z', '--raw', '-p', '-M', '-C', '--full-index'];

  it('returns the same bytes as git diff-tree between two commits', async () => {
    const { c1, c2 } = fixture.commits;
    const { patch, truncated } = await repo.diffPatch({ from: c1, to: c2, maxBytes: 1 << 20 });
    expect(truncated).toBe(false);
    expect(patch.equals(gitRaw(fixture.gitDir, [...cliArgs, c1, c2]))).toBe(true);
    expect(patch.toString()).toContain(`:100644 100644 ${fixture.blobs.readme} ${fixture.blobs.readme2} M\0README\0`);
    expect(patch.toString()).toContain('+world');
  });

  it('answers many commit pairs at once with the bytes of one diff-tree per pair, cut ones too', async () => {
    const { c1, c2, c3, m } = fixture.commits;
    const pairs: Array<[Oid, Oid]> = [
      [c1, c2],
      [c2, c1],
      [c1, m],
      [c3, m],
      [c2, c2],
    ];
    const patches = await Promise.all(pairs.map(([from, to]) => repo.diffPatch({ from, to, maxBytes: 1 << 20 })));
    pairs.forEach(([from, to], index) => expect(patches[index]?.patch.equals(gitRaw(fixture.gitDir, [...cliArgs, from, to]))).toBe(true));
    const cut = await repo.diffPatch({ from: c1, to: m, maxBytes: 40 });
    expect(cut.truncated).toBe(true);
    expect(cut.patch.equals(gitRaw(fixture.gitDir, [...cliArgs, c1, m]).subarray(0, 40))).toBe(true);
    expect((await repo.diffPatch({ from: c1, to: c2, maxBytes: 1 << 20 })).patch.equals(patches[0]?.patch ?? Buffer.alloc(0))).toBe(true);
  });

  it('diffs a root commit against the empty tree, binary files included', async () => {
    const { patch } = await repo.diffPatch({ from: null, to: fixture.commits.c1, maxBytes: 1 << 20 });
    expect(patch.equals(gitRaw(fixture.gitDir, [...cliArgs, EMPTY_TREE_OID, fixture.commits.c1]))).toBe(true);
    expect(patch.toString()).toContain('Binary files /dev/null and b/big.bin differ');
    expect(patch.toString()).toContain('new file mode 160000');
  });

  it('stops at maxBytes and reports truncation', async () => {
    const { patch, truncated } = await repo.diffPatch({ from: null, to: fixture.commits.c1, maxBytes: 50 });
    expect(truncated).toBe(true);
    expect(patch.length).toBe(50);
  });

  it('counts lines per file like git diff-tree --numstat, binary files as -', async () => {
    const { patch, truncated } = await repo.diffNumstat({ from: null, to: fixture.commits.c1, maxBytes: 1 << 20 });
    expect(truncated).toBe(false);
    expect(patch.toString()).toContain('-\t-\tbig.bin\0');
    const { c1, c2 } = fixture.commits;
    expect((await repo.diffNumstat({ from: c1, to: c2, maxBytes: 1 << 20 })).patch.toString()).toMatch(/^\d+\t\d+\tREADME\0/m);
  });

  it('returns an empty patch for identical trees', async () => {
    const { c2, m } = fixture.commits;
    expect((await repo.diffPatch({ from: c2, to: m, maxBytes: 100 })).patch.length).toBe(0);
  });
});
