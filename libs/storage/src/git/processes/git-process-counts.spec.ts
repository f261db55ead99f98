import { CatFileProcess } from './cat-file-process.js';
import { makeTempBareRepository, removeTempDir } from '../write/git-cli.testing.js';
import { readGitProcessCounts } from './git-process-counts.js';
import { runGit } from './run-git.js';
import { waitUntil } from '../../wait-until.testing.js';
import { StorageRuntime } from '../storage-runtime.js';

const runtime = new StorageRuntime();

let tmp: string;
let gitDir: string;

beforeAll(async () => {
  ({ tmp, gitDir } = await makeTempBareRepository());
});
afterAll(() => removeTempDir(tmp));

describe('readGitProcessCounts', () => {
  it('counts a short-lived command as spawned, and running only while it runs', async () => {
    const before = readGitProcessCounts();
    await runGit({ processes: runtime.processes, gitDir, args: ['rev-parse', '--is-bare-repository'] });
    const after = readGitProcessCounts();
    expect(after.command.spawned - before.command.spawned).toBe(1);
    expect(after.command.running).toBe(before.command.running);
  });

  it('counts a cat-file process as running until it stops', async () => {
    const before = readGitProcessCounts();
    const process = new CatFileProcess(gitDir, { processes: runtime.processes, idleMs: 60_000 });
    await process.request('HEAD', false);
    expect(readGitProcessCounts()['cat-file']).toEqual({ running: before['cat-file'].running + 1, spawned: before['cat-file'].spawned + 1 });
    process.close();
    await waitUntil(() => readGitProcessCounts()['cat-file'].running === before['cat-file'].running);
  });
});
