import { makeTempDir, removeTempDir } from '../write/git-cli.testing.js';
import { lastCommitTouching } from './history.js';
import { buildTrickyHistory, TRICKY_PATHS } from './history-index.testing.js';
import { IndexBudget } from '../limits/index-budget.js';
import { LastCommitIndex } from './last-commit-index.js';
import { StorageRuntime } from '../storage-runtime.js';

const runtime = new StorageRuntime();

/** Every folder of the tricky histories with the names ever seen in it. */
const FOLDERS: ReadonlyMap<string, string[]> = (() => {
  const folders = new Map<string, string[]>();
  for (const path of TRICKY_PATHS) {
    const slash = path.lastIndexOf('/');
    const folder = slash < 0 ? '' : path.slice(0, slash);
    folders.set(folder, [...(folders.get(folder) ?? []), path.slice(slash + 1)]);
  }
  return folders;
})();

let tmp: string;

beforeAll(async () => {
  tmp = await makeTempDir();
});
afterAll(async () => {
  await removeTempDir(tmp);
});

describe('LastCommitIndex.lastCommitsUnder', () => {
  it.each([1, 5])(
    'names, for every entry of every folder, what `git rev-list -1 <commit> -- <entry>` names, at every other commit (seed %i)',
    async (seed) => {
      const { gitDir, commits } = await buildTrickyHistory(tmp, { seed, commits: 40 });
      const at = { gitDir, processes: runtime.processes };
      const index = new LastCommitIndex(at, new IndexBudget(1024 * 1024));
      for (const commit of commits.filter((_, at) => at % 2 === 1 || at === commits.length - 1)) {
        for (const [folder, names] of FOLDERS) {
          const answers = await index.lastCommitsUnder(commit, folder, names);
          const expected = await Promise.all(names.map((name) => lastCommitTouching(at, { from: commit, path: folder === '' ? name : `${folder}/${name}` })));
          expect({ commit, folder, answers: names.map((name, entry) => [name, answers[entry]]) }).toEqual({
            commit,
            folder,
            answers: names.map((name, entry) => [name, expected[entry]]),
          });
        }
      }
    },
    120_000,
  );

  it("answers a history the index cannot hold from the folder's own changes, as git does", async () => {
    const { gitDir, commits } = await buildTrickyHistory(tmp, { seed: 13, commits: 30 });
    const at = { gitDir, processes: runtime.processes };
    const tiny = new LastCommitIndex(at, new IndexBudget(1000));
    for (const commit of commits.filter((_, index) => index % 3 === 2)) {
      for (const [folder, names] of FOLDERS) {
        const answers = await tiny.lastCommitsUnder(commit, folder, names);
        const expected = await Promise.all(names.map((name) => lastCommitTouching(at, { from: commit, path: folder === '' ? name : `${folder}/${name}` })));
        expect({ commit, folder, answers }).toEqual({ commit, folder, answers: expected });
      }
    }
    // What the index keeps stays within its budget (the first, short histories fit).
    expect(tiny.size).toBeLessThanOrEqual(1000);
  }, 120_000);
});
