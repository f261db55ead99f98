import path from 'node:path';
import { git, makeTempDir, removeTempDir } from './git-cli.testing.js';
import { initBareRepository } from './init-bare-repository.js';
import { streamGit } from './run-git.js';

const COMMITS = 3000;

let tmp: string;
let gitDir: string;

/** A linear history of {@link COMMITS} commits written by `git fast-import`. */
function fastImportScript(): string {
  const lines: string[] = [];
  for (let at = 1; at <= COMMITS; at += 1) {
    const message = `commit ${at}`;
    lines.push('commit refs/heads/main', `mark :${at}`, `committer Alice <alice@example.com> ${1_600_000_000 + at} +0000`);
    lines.push(`data ${Buffer.byteLength(message)}`, message);
    if (at > 1) lines.push(`from :${at - 1}`);
    lines.push(`M 100644 inline file`, `data ${String(at).length}`, String(at), '');
  }
  return `${lines.join('\n')}\n`;
}

beforeAll(async () => {
  tmp = await makeTempDir();
  gitDir = path.join(tmp, 'repo.git');
  await initBareRepository(gitDir);
  git(gitDir, ['fast-import', '--quiet'], { input: fastImportScript() });
});
afterAll(() => removeTempDir(tmp));

describe('streamGit', () => {
  it('receives a long listing in blocks, not a write per commit', async () => {
    let chunks = 0;
    let bytes = 0;
    await streamGit({ gitDir, args: ['rev-list', '--timestamp', 'refs/heads/main'] }, (chunk) => {
      chunks += 1;
      bytes += chunk.length;
    });
    // 3,000 lines of 52 bytes: ~39 blocks of 4 KiB; a write per commit arrives as hundreds of reads.
    expect(bytes).toBe(COMMITS * 52);
    expect(chunks).toBeLessThan(COMMITS / 20);
  });
});
