// The diff library against git itself: every commit of a varied generated history diffed by
// git, parsed, formatted back and compared byte for byte (the oracle of tools/src/diff-oracle).
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { writeScratchHistory } from '@forge-httpd/builder/scratch';
import { generateHistory } from '../src/diff-oracle/generate-history.js';
import { runDiffOracle } from '../src/diff-oracle/oracle.js';

const COMMITS = 150;
let root: string;
let gitDir: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'forge-'));
  gitDir = path.join(root, 'repo.git');
  await writeScratchHistory(gitDir, generateHistory(COMMITS, 7));
}, 60_000);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

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
