import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CommitGraph, graphHasChangedPaths } from './commit-graph-file.js';
import { git, importLinearCommits, makeTempBareRepository, removeTempDir } from '../write/git-cli.testing.js';
import { countReachableInGraph, isAncestorInGraph, refsContainingInGraph } from './graph-containment.js';
import { readGitProcessCounts } from '../processes/git-process-counts.js';
import { IndexBudget } from '../limits/index-budget.js';
import { listRefFiles, PackedRefsFile } from '../objects/loose-files.js';
import type { Oid } from '../objects/oid.js';
import { commitTimesInGraph, historyInGraph } from './graph-history.js';
import { warmUpCommitGraphCode } from './graph-warm-up.js';
import { openGitRepository } from '../open-git-repository.js';
import { ReachabilityIndex } from './reachability-index.js';
import { RepositoryCommitGraph } from './repository-commit-graph.js';
import { StorageRuntime } from '../storage-runtime.js';

const runtime = new StorageRuntime();

const PREFIXES = ['refs/heads/', 'refs/remotes/'];
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

let tmp: string;
let gitDir: string;
let commits: Oid[];

/** A commit of the empty tree with `parents`, at `time`. */
function commitTree(dir: string, parents: readonly string[], message: string, time: number): Oid {
  const env = { GIT_AUTHOR_DATE: `${time} +0000`, GIT_COMMITTER_DATE: `${time} +0000` };
  return git(dir, ['commit-tree', EMPTY_TREE, ...parents.flatMap((parent) => ['-p', parent]), '-m', message], { env }) as Oid;
}

/** `git for-each-ref --contains` over the branches and remote branches. */
function containingByGit(dir: string, commit: string): string[] {
  return git(dir, ['for-each-ref', '--format=%(refname)', `--contains=${commit}`, ...PREFIXES])
    .split('\n')
    .filter((name) => name !== '');
}

/** The tips as refsContaining sees them (name order, peeled ids). */
function tipsOf(dir: string): Array<{ name: string; commit: Oid }> {
  return git(dir, ['for-each-ref', '--format=%(refname) %(objectname)', ...PREFIXES])
    .split('\n')
    .map((line) => line.split(' '))
    .map(([name, commit]) => ({ name: name as string, commit: commit as Oid }));
}

/** `git rev-list --timestamp`: the commit times of `from`'s history, in git's order. */
function timesByGit(dir: string, from: string): number[] {
  return git(dir, ['rev-list', '--timestamp', from])
    .split('\n')
    .map((line) => Number(line.split(' ')[0]));
}

/**
 * A copy of the test repository with two commits of equal time, a merge of them older than
 * its parents and a commit on top, and its commit-graph written.
 * @returns the copy, its graph, and the new commits (top first) to start walks from
 */
function withTiesAndSkew(name: string): { dir: string; graph: CommitGraph; starts: Oid[] } {
  const dir = copyRepository(name);
  const [a, b] = [commitTree(dir, [commits[40] as string], 'tie a', 1_750_000_000), commitTree(dir, [commits[60] as string], 'tie b', 1_750_000_000)];
  const skewed = commitTree(dir, [a, b, commits[0] as string], 'merge older than its parents', 1_600_000_000);
  const top = commitTree(dir, [skewed], 'top', 1_750_000_000);
  git(dir, ['update-ref', `refs/heads/${name}`, top]);
  git(dir, ['commit-graph', 'write', '--reachable']);
  return { dir, graph: CommitGraph.read(dir) as CommitGraph, starts: [top, skewed, a] };
}

function allCommits(dir: string): Oid[] {
  return git(dir, ['rev-list', '--all']).split('\n') as Oid[];
}

/** A copy of the repository, for changes one test makes to its graph. */
function copyRepository(name: string): string {
  const copy = path.join(tmp, name);
  cpSync(gitDir, copy, { recursive: true });
  return copy;
}

beforeAll(async () => {
  ({ tmp, gitDir } = await makeTempBareRepository());
  // Branches, a merge, an octopus merge (extra edges), a remote branch, packed and loose refs.
  const main = importLinearCommits(gitDir, { branch: 'refs/heads/main', commits: 200 });
  const side = importLinearCommits(gitDir, { branch: 'refs/heads/side', commits: 30, from: main[100], time: 1_650_000_000 });
  const merge = commitTree(gitDir, [main[199] as string, side[29] as string], 'merge', 1_700_000_000);
  git(gitDir, ['update-ref', 'refs/heads/main', merge]);
  // Its third and fourth parents are reached through it alone (through the graph's extra edges).
  const lone = importLinearCommits(gitDir, { branch: 'refs/heads/lone', commits: 3, time: 1_660_000_000 });
  const other = importLinearCommits(gitDir, { branch: 'refs/heads/other', commits: 2, from: main[20], time: 1_670_000_000 });
  git(gitDir, ['update-ref', '-d', 'refs/heads/lone']);
  git(gitDir, ['update-ref', '-d', 'refs/heads/other']);
  const octopus = commitTree(gitDir, [merge, side[10] as string, lone[2] as string, other[1] as string], 'octopus', 1_700_000_100);
  git(gitDir, ['update-ref', 'refs/heads/octo', octopus]);
  git(gitDir, ['update-ref', 'refs/remotes/origin/feature', side[5] as string]);
  git(gitDir, ['update-ref', 'refs/heads/root-only', main[0] as string]);
  git(gitDir, ['pack-refs', '--all']);
  git(gitDir, ['update-ref', 'refs/heads/side', side[20] as string]); // loose, over the packed one
  git(gitDir, ['commit-graph', 'write', '--reachable']);
  commits = allCommits(gitDir);
});
afterAll(() => removeTempDir(tmp));

describe('CommitGraph', () => {
  it('reads every commit of the graph with its parents as git lists them', () => {
    const graph = CommitGraph.read(gitDir);
    expect(graph?.size).toBe(commits.length);
    for (const line of git(gitDir, ['rev-list', '--all', '--parents']).split('\n')) {
      const [commit, ...parents] = line.split(' ') as Oid[];
      const position = graph?.position(commit as Oid) ?? -1;
      expect(position).toBeGreaterThanOrEqual(0);
      const listed = graph?.parentPositions.slice(graph.parentsStart(position), graph.parentsStart(position + 1));
      expect([...(listed ?? [])]).toEqual(parents.map((parent) => graph?.position(parent)));
    }
    expect(graph?.position('0'.repeat(40) as Oid)).toBe(-1);
  });

  it('answers which branches contain each commit as for-each-ref --contains does, by walk and by masks', () => {
    const graph = CommitGraph.read(gitDir) as CommitGraph;
    const refs = tipsOf(gitDir);
    const index = new ReachabilityIndex({ gitDir: gitDir, processes: runtime.processes }, new IndexBudget(100_000));
    for (const commit of commits) {
      const expected = containingByGit(gitDir, commit);
      expect(refsContainingInGraph(graph, commit, refs)).toEqual(expected);
      expect(index.containingInGraph(commit, refs, graph)).toEqual(expected);
    }
  });

  it('tells whether a commit is an ancestor of another as merge-base --is-ancestor does', () => {
    const graph = CommitGraph.read(gitDir) as CommitGraph;
    const sample = commits.filter((_, at) => at % 17 === 0);
    for (const ancestor of sample) {
      for (const descendant of sample) {
        const byGit = spawnSync('git', ['--git-dir', gitDir, 'merge-base', '--is-ancestor', ancestor, descendant]).status === 0;
        expect(isAncestorInGraph(graph, ancestor, descendant)).toBe(byGit);
      }
    }
    expect(isAncestorInGraph(graph, '0'.repeat(40) as Oid, commits[0] as Oid)).toBeNull();
  });

  it('counts the commits each one reaches as rev-list --count does', () => {
    const graph = CommitGraph.read(gitDir) as CommitGraph;
    for (const commit of commits.filter((_, at) => at % 7 === 0)) {
      expect(countReachableInGraph(graph, commit)).toBe(Number(git(gitDir, ['rev-list', '--count', commit])));
    }
  });

  it('lists the commit times of a history in the order rev-list --timestamp does, ties and clock skew included', () => {
    const { dir, graph, starts } = withTiesAndSkew('times');
    for (const from of [...starts, ...commits.filter((_, at) => at % 23 === 0)]) {
      expect(commitTimesInGraph(graph, from)).toEqual(timesByGit(dir, from));
    }
  });

  it('lists windows of a history as rev-list --skip --max-count does, ties, clock skew and time bounds included', () => {
    const { dir, graph, starts } = withTiesAndSkew('windows');
    for (const from of [...starts, ...commits.filter((_, at) => at % 37 === 0)]) {
      const all = git(dir, ['rev-list', from]).split('\n');
      expect(historyInGraph(graph, from, {})?.toArray()).toEqual(all);
      for (const [skip, maxCount] of [
        [0, 30],
        [5, 7],
        [29, 1],
        [all.length - 3, 10],
        [all.length, 5],
        [all.length + 5, 10],
        [3, 0],
      ] as const) {
        const byGit = git(dir, ['rev-list', `--skip=${skip}`, `--max-count=${maxCount}`, from])
          .split('\n')
          .filter((line) => line !== '');
        expect([skip, maxCount, historyInGraph(graph, from, { skip, maxCount })?.toArray()]).toEqual([skip, maxCount, byGit]);
      }
      // Time bounds filter every commit of the history (walkCommitOids over rev-list --timestamp).
      const timed = git(dir, ['rev-list', '--timestamp', from])
        .split('\n')
        .map((line) => line.split(' ') as [string, string]);
      const times = timed.map(([time]) => Number(time)).sort((x, y) => x - y);
      const [since, until] = [times[Math.floor(times.length / 4)] as number, times[Math.floor((times.length * 3) / 4)] as number];
      const inBounds = timed.filter(([time]) => Number(time) >= since && Number(time) < until).map(([, oid]) => oid);
      expect(historyInGraph(graph, from, { since, until, skip: 2, maxCount: 9 })?.toArray()).toEqual(inBounds.slice(2, 11));
    }
    expect(historyInGraph(graph, '0'.repeat(40) as Oid, {})).toBeNull();
  });

  it('reads a split chain of graph files', () => {
    const dir = copyRepository('chain');
    rmSync(path.join(dir, 'objects', 'info', 'commit-graph'));
    git(dir, ['commit-graph', 'write', '--reachable', '--split=no-merge']);
    const later = importLinearCommits(dir, { branch: 'refs/heads/later', commits: 5, from: commits[0], time: 1_800_000_000 });
    git(dir, ['commit-graph', 'write', '--reachable', '--split=no-merge']);
    const chain = readFileSync(path.join(dir, 'objects', 'info', 'commit-graphs', 'commit-graph-chain'), 'latin1')
      .trim()
      .split('\n');
    expect(chain.length).toBeGreaterThanOrEqual(2);
    const graph = CommitGraph.read(dir) as CommitGraph;
    expect(graph.size).toBe(allCommits(dir).length);
    const refs = tipsOf(dir);
    for (const commit of [...commits.slice(0, 40), ...(later as Oid[])]) {
      expect(refsContainingInGraph(graph, commit, refs)).toEqual(containingByGit(dir, commit));
    }
    // Ids come from every layer of the chain.
    const tip = (later as Oid[]).at(-1) as Oid;
    expect(historyInGraph(graph, tip, {})?.toArray()).toEqual(git(dir, ['rev-list', tip]).split('\n'));
  });

  it('reads no graph past its bound of commits, nor one heavier than the budget it is held in', () => {
    expect(CommitGraph.read(gitDir, undefined, { maxCommits: commits.length - 1 })).toBeNull();
    expect(CommitGraph.read(gitDir, undefined, { maxCommits: commits.length })?.size).toBe(commits.length);
    // ~36 bytes a commit against 80 a budget unit: 120 units hold ~266 commits, 50 do not.
    expect(new RepositoryCommitGraph(gitDir, new IndexBudget(120), runtime.processes.overlays).current()?.size).toBe(commits.length);
    expect(new RepositoryCommitGraph(gitDir, new IndexBudget(50), runtime.processes.overlays).current()).toBeNull();
  });

  it('reads nothing from a graph it cannot read exactly', () => {
    const dir = copyRepository('broken');
    const file = path.join(dir, 'objects', 'info', 'commit-graph');
    const bytes = readFileSync(file);
    writeFileSync(file, bytes.subarray(0, bytes.length - 100));
    expect(CommitGraph.read(dir)).toBeNull();
    const wrongVersion = Buffer.from(bytes);
    wrongVersion[4] = 9;
    writeFileSync(file, wrongVersion);
    expect(CommitGraph.read(dir)).toBeNull();
    writeFileSync(file, 'not a graph');
    expect(CommitGraph.read(dir)).toBeNull();
  });

  it('tells whether a graph, single or split, has changed-path Bloom filters in every layer', () => {
    const objects = (dir: string): string => path.join(dir, 'objects');
    expect(graphHasChangedPaths(objects(gitDir))).toBe(false);
    const single = copyRepository('filters-single');
    git(single, ['commit-graph', 'write', '--reachable', '--changed-paths']);
    expect(graphHasChangedPaths(objects(single))).toBe(true);
    const none = copyRepository('filters-none');
    rmSync(path.join(none, 'objects', 'info', 'commit-graph'));
    expect(graphHasChangedPaths(objects(none))).toBeUndefined();

    // A chain whose base has filters and whose newer layer does not, then one with them in both.
    const chained = copyRepository('filters-chain');
    rmSync(path.join(chained, 'objects', 'info', 'commit-graph'));
    git(chained, ['commit-graph', 'write', '--reachable', '--split=no-merge', '--changed-paths']);
    expect(graphHasChangedPaths(objects(chained))).toBe(true);
    importLinearCommits(chained, { branch: 'refs/heads/later', commits: 3, from: commits[0], time: 1_800_000_000 });
    git(chained, ['-c', 'commitGraph.changedPathsVersion=0', 'commit-graph', 'write', '--reachable', '--split=no-merge', '--no-changed-paths']);
    const chainFile = path.join(chained, 'objects', 'info', 'commit-graphs', 'commit-graph-chain');
    expect(readFileSync(chainFile, 'latin1').trim().split('\n')).toHaveLength(2);
    expect(graphHasChangedPaths(objects(chained))).toBe(false);

    // A chain naming anything but layer hashes is not followed (its names become paths).
    writeFileSync(chainFile, '../../../../etc/passwd\n');
    expect(graphHasChangedPaths(objects(chained))).toBe(false);
    writeFileSync(path.join(single, 'objects', 'info', 'commit-graph'), 'not a graph');
    expect(graphHasChangedPaths(objects(single))).toBe(false);
  });

  it('answers by a walk when the graph has no levels (older writers)', () => {
    const dir = copyRepository('no-levels');
    const file = path.join(dir, 'objects', 'info', 'commit-graph');
    const bytes = Buffer.from(readFileSync(file));
    const graph = CommitGraph.read(dir) as CommitGraph;
    // CDAT follows OIDF (1,024 bytes) and OIDL here; zero each commit's level bits.
    const chunkTable = bytes.subarray(8);
    let data = -1;
    for (let at = 0; chunkTable.readUInt32BE(at) !== 0; at += 12) {
      if (chunkTable.readUInt32BE(at) === 0x43444154) data = Number(chunkTable.readBigUInt64BE(at + 4));
    }
    for (let i = 0; i < graph.size; i++) {
      const at = data + i * 36 + 28;
      bytes.writeUInt32BE(bytes.readUInt32BE(at) & 0x3, at);
    }
    writeFileSync(file, bytes);
    const levelless = CommitGraph.read(dir) as CommitGraph;
    expect(levelless.level(0)).toBe(0);
    const refs = tipsOf(dir);
    const index = new ReachabilityIndex({ gitDir: dir, processes: runtime.processes }, new IndexBudget(100_000));
    for (const commit of commits.slice(0, 60)) {
      expect(index.containingInGraph(commit, refs, levelless)).toEqual(containingByGit(dir, commit));
    }
  });
});

describe('the warm-up graph', () => {
  /** The parents of the commit at `position`, as positions. */
  const parentsAt = (graph: CommitGraph, position: number): number[] => [
    ...graph.parentPositions.subarray(graph.parentsStart(position), graph.parentsStart(position + 1)),
  ];

  it('is one line of history with a merge every eighth commit, decoded as a file would be', () => {
    const graph = CommitGraph.synthetic(20) as CommitGraph;
    expect(graph.size).toBe(20);
    expect(parentsAt(graph, 0)).toEqual([]);
    expect(parentsAt(graph, 7)).toEqual([6]);
    expect(parentsAt(graph, 16)).toEqual([15, 8]);
    expect([0, 1, 19].map((position) => graph.level(position))).toEqual([1, 2, 20]);
    expect(graph.time(19) - graph.time(0)).toBe(19);
    expect(graph.position(`00000010${'0'.repeat(32)}` as Oid)).toBe(16);
    expect(graph.position(`00000014${'0'.repeat(32)}` as Oid)).toBe(-1);
  });

  it('is answered as its history implies by every question the graph code answers', () => {
    expect(warmUpCommitGraphCode(64, 1)).toBe(true);
    expect(warmUpCommitGraphCode(9, 2)).toBe(true);
  });
});

describe('listRefFiles', () => {
  it('lists loose refs over packed ones, and leaves symbolic refs to git', () => {
    const listed = listRefFiles(gitDir, PREFIXES, new PackedRefsFile(gitDir));
    const byName = new Map((listed ?? []).map((ref) => [ref.name, ref.oid]));
    expect(new Map(tipsOf(gitDir).map((ref) => [ref.name, ref.commit]))).toEqual(byName);
    const dir = copyRepository('symbolic');
    git(dir, ['symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/feature']);
    expect(listRefFiles(dir, PREFIXES, new PackedRefsFile(dir))).toBeUndefined();
  });
});

describe('GitRepository.refsContaining with a commit-graph', () => {
  it('answers from the ref files and the graph without a git process, and goes to git past the graph', async () => {
    const dir = copyRepository('repository');
    // The test's own git commands block the event loop, which would read as a busy thread.
    const repo = openGitRepository(dir, { runtime, threadLoad: { isBusy: () => false } });
    try {
      const before = readGitProcessCounts().command.spawned;
      for (const commit of commits) expect(await repo.refsContaining(commit, PREFIXES)).toEqual(containingByGit(dir, commit));
      expect(await repo.isAncestor(commits[commits.length - 1] as Oid, commits[0] as Oid)).toBe(true);
      expect(await repo.isAncestor(commits[0] as Oid, commits[commits.length - 1] as Oid)).toBe(false);
      expect(await repo.countCommits(commits[0] as Oid)).toBe(Number(git(dir, ['rev-list', '--count', commits[0] as string])));
      const times = timesByGit(dir, commits[0] as string);
      expect(await repo.commitTimes(commits[0] as Oid, 1_650_000_000)).toEqual(times.filter((time) => time > 1_650_000_000));
      // A page deep in the history (past what is walked through commit reads) and all of it.
      const deep = git(dir, ['rev-list', '--skip=150', '--max-count=30', commits[0] as string]).split('\n');
      expect((await repo.walkCommits({ from: commits[0] as Oid, skip: 150, maxCount: 30 })).map((commit) => commit.oid)).toEqual(deep);
      expect((await repo.listCommitOids({ from: commits[0] as Oid })).toArray()).toEqual(git(dir, ['rev-list', commits[0] as string]).split('\n'));
      expect(readGitProcessCounts().command.spawned).toBe(before);
      // A branch moved past the graph: git answers, the same answers.
      const later = importLinearCommits(dir, { branch: 'refs/heads/main', commits: 2, from: git(dir, ['rev-parse', 'refs/heads/main']), time: 1_900_000_000 });
      for (const commit of [...later, ...commits.slice(0, 20)]) {
        expect(await repo.refsContaining(commit as Oid, PREFIXES)).toEqual(containingByGit(dir, commit));
      }
      // A graph written again: in process again.
      git(dir, ['commit-graph', 'write', '--reachable']);
      const again = readGitProcessCounts().command.spawned;
      for (const commit of later) expect(await repo.refsContaining(commit as Oid, PREFIXES)).toEqual(containingByGit(dir, commit));
      expect(readGitProcessCounts().command.spawned).toBe(again);
    } finally {
      await repo.close();
    }
  });
});
