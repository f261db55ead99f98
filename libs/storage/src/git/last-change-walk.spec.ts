import { gitRaw, makeTempDir, removeTempDir } from './git-cli.testing.js';
import type { GitRepository } from './git-repository.js';
import { readGitProcessCounts } from './git-process-counts.js';
import { buildTrickyHistory, TRICKY_PATHS } from './history-index.testing.js';
import { findLastChangeNear } from './last-change-walk.js';
import type { Oid } from './oid.js';
import { openGitRepository } from './open-git-repository.js';

let tmp: string;

beforeAll(async () => {
  tmp = await makeTempDir();
});
afterAll(async () => {
  await removeTempDir(tmp);
});

const revList = (gitDir: string, args: readonly string[]): string[] =>
  gitRaw(gitDir, ['--literal-pathspecs', 'rev-list', ...args])
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '');

/** Git processes started so far (any kind). */
const started = (): number => Object.values(readGitProcessCounts()).reduce((sum, kind) => sum + kind.spawned, 0);

// Repacked, the objects are read in process; as fast-import packs them (deep delta chains) many go to cat-file.
describe.each([
  [1, 'as written'],
  [2, 'repacked'],
  [3, 'repacked'],
])('on a random history with merges, evil merges, equal times and clock skew (seed %d, %s)', (seed, packing) => {
  let gitDir: string;
  let commits: Oid[];
  let repo: GitRepository;

  beforeAll(async () => {
    ({ gitDir, commits } = await buildTrickyHistory(tmp, { seed, commits: 90 }));
    if (packing === 'repacked') gitRaw(gitDir, ['repack', '-a', '-d', '-f', '-q']);
    repo = openGitRepository(gitDir, { threadLoad: { isBusy: () => false } });
  });
  afterAll(() => repo.close());

  it('finds the commit `rev-list -1 <from> -- <path>` names, for every commit and path', async () => {
    let compared = 0;
    for (const from of commits) {
      for (const path of [...TRICKY_PATHS, 'no/such/path']) {
        const expected = revList(gitDir, ['--max-count=1', from, '--', path])[0] ?? null;
        const unbounded = { limit: Number.POSITIVE_INFINITY, budgetMs: Number.POSITIVE_INFINITY };
        expect({ from, path, found: await findLastChangeNear(repo, { from, segments: path.split('/') }, unbounded) }).toEqual({
          from,
          path,
          found: expected,
        });
        compared += 1;
      }
    }
    expect(compared).toBe(commits.length * (TRICKY_PATHS.length + 1));
  });

  it('gives up after its limit of commits or of time, and on an object it cannot read', async () => {
    const from = commits[commits.length - 1] as Oid;
    expect(await findLastChangeNear(repo, { from, segments: ['no', 'such', 'path'] }, { limit: 3, budgetMs: Number.POSITIVE_INFINITY })).toBeUndefined();
    expect(await findLastChangeNear(repo, { from: '0'.repeat(40) as Oid, segments: ['a'] })).toBeUndefined();
    // Out of time after the first step: the start commit is still looked at.
    expect(await findLastChangeNear(repo, { from, segments: ['no', 'such', 'path'] }, { limit: 100, budgetMs: -1 })).toBeUndefined();
  });
});

describe('lastCommitTouching on a repository', () => {
  it('answers a path changed a few commits back by the walk, without a process; git answers the rest', async () => {
    const { gitDir, commits } = await buildTrickyHistory(tmp, { seed: 7, commits: 60 });
    // Packed as git packs (newest objects whole): fast-import's deep delta chains are left to cat-file.
    gitRaw(gitDir, ['repack', '-a', '-d', '-f', '-q']);
    const repo = openGitRepository(gitDir, { threadLoad: { isBusy: () => false } });
    try {
      const from = revList(gitDir, ['--no-merges', '--max-count=1', commits[commits.length - 1] as Oid])[0] as Oid;
      // The last-commit index is not read yet (it reads after an answer, in the background).
      const changed = gitRaw(gitDir, ['diff-tree', '-z', '--no-commit-id', '--name-only', '-r', '--root', from]).toString('utf8').split('\0')[0] as string;
      const before = started();
      expect(await repo.lastCommitTouching({ from, path: changed })).toBe(from);
      expect(started()).toBe(before);
      // Absent from the whole history: longer than the walk's budget, answered by git.
      expect(await findLastChangeNear(repo, { from, segments: ['no', 'such', 'path'] })).toBeUndefined();
      expect(await repo.lastCommitTouching({ from, path: 'no/such/path' })).toBeNull();
    } finally {
      await repo.close();
    }
  });
});
