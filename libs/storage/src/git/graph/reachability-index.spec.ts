import { git, importLinearCommits, makeTempBareRepository, removeTempDir } from '../write/git-cli.testing.js';
import { IndexBudget } from '../limits/index-budget.js';
import { readGitProcessCounts } from '../processes/git-process-counts.js';
import type { Oid } from '../objects/oid.js';
import { ReachabilityIndex } from './reachability-index.js';
import { StorageRuntime } from '../storage-runtime.js';

const runtime = new StorageRuntime();

let tmp: string;
let gitDir: string;
let main: string[];
let side: string[];
let refs: { name: string; commit: Oid }[];

beforeAll(async () => {
  ({ tmp, gitDir } = await makeTempBareRepository());
  main = importLinearCommits(gitDir, { branch: 'refs/heads/main', commits: 3000 });
  side = importLinearCommits(gitDir, { branch: 'refs/heads/side', commits: 20, from: main[1499], time: 1_700_000_000 });
  refs = ['refs/heads/main', 'refs/heads/side'].map((name) => ({ name, commit: git(gitDir, ['rev-parse', name]) as Oid }));
});
afterAll(() => removeTempDir(tmp));

/** `git for-each-ref --contains`: the names of `refs` whose tip reaches `commit`. */
function containingByGit(commit: string): string[] {
  return git(gitDir, ['for-each-ref', '--format=%(refname)', '--contains', commit, 'refs/heads/'])
    .split('\n')
    .filter((name) => name !== '');
}

/**
 * Builds `index` for `refs` and counts the turns of the event loop between git's exit and
 * the index answering: the turns its parsing gave away.
 */
async function turnsWhileParsing(index: ReachabilityIndex): Promise<number> {
  const before = readGitProcessCounts().command.running;
  index.prepare(refs);
  let [sawGit, ready, turns] = [false, false, 0];
  await new Promise<void>((resolve) => {
    const tick = (): void => {
      void index.containing(main[0] as Oid, refs).then((answer) => {
        ready ||= answer !== null;
      });
      if (readGitProcessCounts().command.running > before) sawGit = true;
      else if (sawGit && !ready) turns += 1;
      if (ready) resolve();
      else setImmediate(tick);
    };
    setImmediate(tick);
  });
  return turns;
}

describe('ReachabilityIndex', () => {
  it('parses the listing in slices, giving the event loop turns, and answers as for-each-ref --contains does', async () => {
    const index = new ReachabilityIndex({ gitDir: gitDir, processes: runtime.processes }, new IndexBudget(100_000), { sliceMs: 0 });
    // ~3,000 lines at 256 a look at the clock: about a dozen slices.
    expect(await turnsWhileParsing(index)).toBeGreaterThanOrEqual(8);
    for (const commit of [main[0], main[1499], main[1500], main[2999], side[0], side[19]] as Oid[]) {
      expect(await index.containing(commit, refs)).toEqual(containingByGit(commit));
    }
  });

  it('parses in one go when its slice outlasts the work', async () => {
    const index = new ReachabilityIndex({ gitDir: gitDir, processes: runtime.processes }, new IndexBudget(100_000), { sliceMs: Number.POSITIVE_INFINITY });
    expect(await turnsWhileParsing(index)).toBeLessThanOrEqual(2);
    expect(await index.containing(side[0] as Oid, refs)).toEqual(['refs/heads/side']);
  });
});
