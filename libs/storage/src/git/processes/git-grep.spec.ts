import { BusyError } from '@forge-httpd/identity';
import { git, makeTempBareRepository, removeTempDir } from '../write/git-cli.testing.js';
import { StorageRuntime } from '../storage-runtime.js';
import { grepCommit, type GrepOptions } from './git-grep.js';
import type { Oid } from '../objects/oid.js';

const runtime = new StorageRuntime();
let tmp: string;
let gitDir: string;
let commit: Oid;

beforeAll(async () => {
  ({ tmp, gitDir } = await makeTempBareRepository());
  const lines = Array.from({ length: 50 }, (_, i) => `match ${i}`).join('\n');
  const blob = git(gitDir, ['hash-object', '-w', '--stdin'], { input: `${lines}\n${'y'.repeat(9000)} match\n` });
  const tree = git(gitDir, ['mktree'], { input: `100644 blob ${blob}\tmany.txt\n` });
  commit = git(gitDir, ['commit-tree', tree, '-m', 'one'], {
    env: { GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@b', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@b' },
  }) as Oid;
});
afterAll(() => removeTempDir(tmp));

const options = (more: Partial<GrepOptions> = {}): GrepOptions => ({
  commit,
  text: 'match',
  path: '',
  ignoreCase: false,
  maxMatches: 1000,
  maxLineChars: 1000,
  timeoutMs: 60_000,
  ...more,
});

describe('grepCommit', () => {
  it('stops git once one match past the bound was seen, and says the rest were cut', async () => {
    const all = await grepCommit({ gitDir, processes: runtime.processes }, options());
    expect(all).toMatchObject({ truncated: false });
    expect(all.matches).toHaveLength(51);
    const cut = await grepCommit({ gitDir, processes: runtime.processes }, options({ maxMatches: 10 }));
    expect(cut).toEqual({ matches: all.matches.slice(0, 10), truncated: true });
  });

  it('keeps the first characters of a long line only', async () => {
    const { matches } = await grepCommit({ gitDir, processes: runtime.processes }, options({ maxLineChars: 20 }));
    expect(matches.at(-1)).toEqual({ path: 'many.txt', line: 51, text: 'y'.repeat(20) });
  });

  it('ends with a BusyError when git runs past its time', async () => {
    // A millisecond: less than git takes to start at all.
    await expect(grepCommit({ gitDir, processes: runtime.processes }, options({ timeoutMs: 1 }))).rejects.toBeInstanceOf(BusyError);
  });

  it('refuses a text with NUL and a path that climbs out', async () => {
    await expect(grepCommit({ gitDir, processes: runtime.processes }, options({ text: 'a\0b' }))).rejects.toThrow('Invalid q');
    await expect(grepCommit({ gitDir, processes: runtime.processes }, options({ path: '../x' }))).rejects.toThrow('Invalid path');
  });
});
