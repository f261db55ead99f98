import { CommitGraph } from './commit-graph-file.js';
import { git, makeTempBareRepository, removeTempDir } from '../write/git-cli.testing.js';
import { halfwayAncestorInGraph } from './graph-halfway.js';
import type { GitRepository } from '../git-repository.js';
import { readGitProcessCounts } from '../processes/git-process-counts.js';
import { seededRandom } from '../history/history-index.testing.js';
import { openGitRepository } from '../open-git-repository.js';
import type { Oid } from '../objects/oid.js';
import { waitUntil } from '../../wait-until.testing.js';
import { StorageRuntime } from '../storage-runtime.js';

const runtime = new StorageRuntime();

let tmp: string;
let gitDir: string;
let head: Oid;
let graph: CommitGraph;

/**
 * A main line with a topic line merged into it every few commits (both ways: sometimes the
 * topic is the first parent), a second root merged in halfway, and 40 authors, some of whom
 * only wrote old commits and some only topic commits.
 */
function importHistory(target: string, commits: number, seed: number): void {
  const next = seededRandom(seed);
  const lines: string[] = [];
  let mainTip = 0;
  let topicTip = 0;
  let time = 1_600_000_000;
  const commit = (mark: number, branch: string, parents: number[], author: number): void => {
    time += 1 + Math.floor(next() * 3);
    const message = `c${mark}`;
    lines.push(`commit refs/heads/${branch}`, `mark :${mark}`);
    lines.push(`author Author ${author} <a${author}@example.com> ${time} +0000`, `committer C <c@example.com> ${time} +0000`);
    lines.push(`data ${message.length}`, message);
    const [first, ...others] = parents;
    if (first !== undefined) lines.push(`from :${first}`);
    for (const other of others) lines.push(`merge :${other}`);
    lines.push('M 100644 inline f', `data ${message.length}`, message, '');
  };
  for (let mark = 1; mark <= commits; mark += 1) {
    const old = mark < commits / 3;
    const author = old ? Math.floor(next() * 20) : 20 + Math.floor(next() * 10);
    if (mark === 1 || mark === Math.floor(commits / 2)) {
      // A root: the first, and one with its own history merged in below.
      commit(mark, mark === 1 ? 'main' : 'other-root', [], author);
      if (mark !== 1) topicTip = mark;
      else mainTip = mark;
    } else if (topicTip !== 0 && next() < 0.12) {
      const parents = next() < 0.3 ? [topicTip, mainTip] : [mainTip, topicTip];
      commit(mark, 'main', parents, author);
      mainTip = mark;
      topicTip = 0;
    } else if (next() < 0.35) {
      // Topic commits: authors 30-39 write nothing else.
      commit(mark, 'topic', [topicTip === 0 ? mainTip : topicTip], 30 + Math.floor(next() * 10));
      topicTip = mark;
    } else {
      commit(mark, 'main', [mainTip], author);
      mainTip = mark;
    }
  }
  git(target, ['fast-import', '--quiet', '--force', '--date-format=raw'], { input: `${lines.join('\n')}\n` });
}

beforeAll(async () => {
  ({ tmp, gitDir } = await makeTempBareRepository());
  importHistory(gitDir, 1200, 7);
  git(gitDir, ['commit-graph', 'write', '--reachable']);
  head = git(gitDir, ['rev-parse', 'refs/heads/main']) as Oid;
  const read = CommitGraph.read(gitDir);
  if (read === null) throw new Error('no commit-graph');
  graph = read;
});
afterAll(() => removeTempDir(tmp));

function revList(args: readonly string[]): string[] {
  return git(gitDir, ['rev-list', ...args])
    .split('\n')
    .filter(Boolean);
}

describe('halfwayAncestorInGraph', () => {
  it("finds an ancestor at half the start's level, and the two walks it makes cover the history once", () => {
    const level = (oid: string): number => graph.level(graph.position(oid as Oid));
    const halfway = halfwayAncestorInGraph(graph, head, 2);
    if (halfway === null) throw new Error('no halfway commit');
    expect(level(halfway)).toBe(Math.floor(level(head) / 2));
    expect(git(gitDir, ['merge-base', '--is-ancestor', halfway, head])).toBe('');

    const newer = revList([head, `^${halfway}`]);
    const older = revList([halfway]);
    const whole = revList([head]);
    expect(new Set([...newer, ...older]).size).toBe(newer.length + older.length);
    expect([...newer, ...older].sort()).toEqual([...whole].sort());
    // Neither half is trivial on this history.
    expect(Math.min(newer.length, older.length)).toBeGreaterThan(whole.length / 5);
  });

  it('cuts nothing below the smallest level, for a commit the graph lacks, or at a root', () => {
    expect(halfwayAncestorInGraph(graph, head, graph.level(graph.position(head)) + 1)).toBeNull();
    expect(halfwayAncestorInGraph(graph, '0123456789abcdef0123456789abcdef01234567' as Oid, 2)).toBeNull();
    const root = revList(['--max-parents=0', head])[0] as Oid;
    expect(halfwayAncestorInGraph(graph, root, 0)).toBeNull();
  });
});

describe('listContributors in two halves', () => {
  let split: GitRepository;
  let whole: GitRepository;
  beforeAll(() => {
    split = openGitRepository(gitDir, { runtime, splitWalksFromLevel: 64 });
    whole = openGitRepository(gitDir, { runtime, splitWalksFromLevel: Number.POSITIVE_INFINITY });
  });
  afterAll(async () => {
    await split.close();
    await whole.close();
  });

  /** Distinct `name\0email` pairs as git lists them. */
  const gitAuthors = (range: readonly string[]): string[] => [...new Set(revList(['--no-commit-header', '--format=%an%x00%ae', ...range]))];
  const keys = (list: ReadonlyArray<{ name: string; email: string }>): string[] => list.map(({ name, email }) => `${name}\0${email}`);

  /** Git commands started while `work` runs (none runs before it: the indexes are built by then). */
  async function commandsDuring(work: () => Promise<unknown>): Promise<number> {
    await waitUntil(() => readGitProcessCounts().command.running === 0);
    const before = readGitProcessCounts().command.spawned;
    await work();
    return readGitProcessCounts().command.spawned - before;
  }

  it('lists every author once, the newer half first, from two walks of git', async () => {
    const halfway = halfwayAncestorInGraph(graph, head, 64) as Oid;
    let listed: string[] = [];
    const started = await commandsDuring(async () => (listed = keys(await split.listContributors(head))));
    expect(started).toBe(2);
    expect([...listed].sort()).toEqual(gitAuthors([head]).sort());
    expect(listed).toEqual([...new Set([...gitAuthors([head, `^${halfway}`]), ...gitAuthors([halfway])])]);
    expect(listed.length).toBe(40);
  });

  it('walks once below the level, and with commits excluded', async () => {
    expect(await commandsDuring(() => whole.listContributors(head))).toBe(1);
    const base = revList(['--first-parent', head])[10] as Oid;
    let listed: string[] = [];
    expect(await commandsDuring(async () => (listed = keys(await split.listContributors(head, { exclude: [base] }))))).toBe(1);
    expect(listed).toEqual(gitAuthors([head, `^${base}`]));
  });
});
