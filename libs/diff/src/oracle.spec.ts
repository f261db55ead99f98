import { generateHistory } from '../../../tools/src/diff-oracle/generate-history.js';
import { runDiffOracle } from '../../../tools/src/diff-oracle/oracle.js';
import { useScratchRepos } from './scratch-repos.testing.js';

const COMMITS = 150;
const scratch = useScratchRepos();
let gitDir: string;

beforeAll(async () => {
  ({ gitDir } = await scratch.history(generateHistory(COMMITS, 7)));
}, 60_000);

describe('diff oracle', () => {
  it('reproduces git byte for byte and matches --numstat on a varied generated history', async () => {
    const report = await runDiffOracle({ gitDir, commits: COMMITS });
    expect(report.mismatches).toEqual([]);
    expect(report.commits).toBe(COMMITS);
    expect(report.files).toBeGreaterThan(COMMITS);
  }, 120_000);

  it('covers every kind of change in the generated history', async () => {
    const { tally } = await runDiffOracle({ gitDir, commits: COMMITS });
    const kinds = [
      'status:added',
      'status:deleted',
      'status:modified',
      'status:moved',
      'status:copied',
      'content:plain',
      'content:binary',
      'content:empty',
      'eof:oldMissing',
      'eof:newMissing',
      'eof:bothMissing',
      'mode:blob',
      'mode:blobExecutable',
      'mode:link',
      'mode:commit',
      'typeChange',
      'path:unusual',
    ];
    expect(kinds.filter((kind) => (tally[kind] ?? 0) === 0)).toEqual([]);
  }, 120_000);
});
