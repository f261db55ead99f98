import { importLinearCommits, makeTempBareRepository, removeTempDir } from '../write/git-cli.testing.js';
import { streamGit } from './run-git.js';
import { StorageRuntime } from '../storage-runtime.js';

const runtime = new StorageRuntime();

const COMMITS = 3000;

let tmp: string;
let gitDir: string;

beforeAll(async () => {
  ({ tmp, gitDir } = await makeTempBareRepository());
  importLinearCommits(gitDir, { branch: 'refs/heads/main', commits: COMMITS });
});
afterAll(() => removeTempDir(tmp));

describe('streamGit', () => {
  it('receives a long listing in blocks, not a write per commit', async () => {
    let chunks = 0;
    let bytes = 0;
    await streamGit({ gitDir, processes: runtime.processes, args: ['rev-list', '--timestamp', 'refs/heads/main'] }, (chunk) => {
      chunks += 1;
      bytes += chunk.length;
    });
    // 3,000 lines of 52 bytes: ~39 blocks of 4 KiB; a write per commit arrives as hundreds of reads.
    expect(bytes).toBe(COMMITS * 52);
    expect(chunks).toBeLessThan(COMMITS / 20);
  });
});
