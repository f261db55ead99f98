import { dateEnv, git, makeTempBareRepository, removeTempDir } from '../write/git-cli.testing.js';
import type { Oid } from '../objects/oid.js';
import { StorageRuntime } from '../storage-runtime.js';
import { blameFile } from './blame.js';

const runtime = new StorageRuntime();

let tmp: string;
let gitDir: string;
const commits: Oid[] = [];

/** A commit whose tree holds `f.txt` with these lines, on top of the last one. */
function commitFile(lines: string[], time: number): Oid {
  const blob = git(gitDir, ['hash-object', '-w', '--stdin'], { input: `${lines.join('\n')}\n` });
  const tree = git(gitDir, ['mktree'], { input: `100644 blob ${blob}\tf.txt\n` });
  const parent = commits.at(-1);
  const commit = git(gitDir, ['commit-tree', tree, '-m', `at ${time}`, ...(parent === undefined ? [] : ['-p', parent])], { env: dateEnv(time) }) as Oid;
  commits.push(commit);
  return commit;
}

beforeAll(async () => {
  ({ tmp, gitDir } = await makeTempBareRepository());
  commitFile(['one', 'two', 'three'], 1_600_000_000);
  commitFile(['one', 'TWO', 'three'], 1_600_000_100);
  commitFile(['one', 'TWO', 'three', 'four'], 1_600_000_200);
});
afterAll(() => removeTempDir(tmp));

describe('blameFile', () => {
  it('names each commit once, as git names it, and exactly the commits of the ranges', async () => {
    const named: Oid[] = [];
    const head = commits.at(-1) as Oid;
    const ranges = await blameFile(
      { gitDir, processes: runtime.processes },
      { commit: head, path: 'f.txt', lines: 4, timeoutMs: 10_000, maxOutputBytes: 1024 * 1024, onCommit: (commit) => named.push(commit) },
    );
    expect(ranges.map(({ start, end, commit }) => [start, end, commit])).toEqual([
      [1, 1, commits[0]],
      [2, 2, commits[1]],
      [3, 3, commits[0]],
      [4, 4, commits[2]],
    ]);
    expect(new Set(named).size).toBe(named.length);
    expect([...named].sort()).toEqual([...new Set(ranges.map((range) => range.commit))].sort());
  });
});
