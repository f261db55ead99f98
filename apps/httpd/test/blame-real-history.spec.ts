import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Blame, LastCommits } from '@forge-httpd/api-types';
import { type BuiltHome, buildNodeHome, repositoryByName } from '@forge-httpd/builder';
import { execGit } from '@forge-httpd/builder/scratch';
import { gitBlameRanges, gitLastCommit } from './support/blame-oracle.js';
import { getJson, makeTempDir, removeTempDir, startTestServer, type TestServer } from './support/index.js';

/**
 * A real history: this repository's own (or another with `FORGE_BLAME_REAL_HISTORY=<git
 * dir>:<commit>`, e.g. a slice of a bigger project), both routes against git on it. Skipped
 * only where the checkout is not a git repository (a source tarball).
 */
function ownHistory(): string | null {
  const root = join(import.meta.dirname, '..', '..', '..');
  const ask = (args: string[]): string | null => {
    const result = spawnSync('git', ['-C', root, ...args]);
    return result.status === 0 ? result.stdout.toString('utf8').trim() : null;
  };
  const gitDir = ask(['rev-parse', '--path-format=absolute', '--git-common-dir']);
  const head = ask(['rev-parse', 'HEAD']);
  return gitDir === null || head === null ? null : `${gitDir}:${head}`;
}

const [SOURCE = '', SLICE_TIP = ''] = (process.env['FORGE_BLAME_REAL_HISTORY'] ?? ownHistory() ?? '').split(':') as [string?, string?];
const describeWithHistory = SOURCE !== '' && existsSync(SOURCE) ? describe : describe.skip;

describeWithHistory('blame and last commits on a real history', () => {
  let dir: string;
  let built: BuiltHome;
  let server: TestServer;
  let gitDir: string;

  beforeAll(async () => {
    dir = await makeTempDir();
    // The slice: a repository borrowing the source's objects, its branch at the slice's tip.
    const slice = join(dir, 'slice.git');
    await execGit({ gitDir: slice, args: ['init', '--quiet', '--bare', slice] });
    await writeFile(join(slice, 'objects', 'info', 'alternates'), `${join(SOURCE, 'objects')}\n`);
    await execGit({ gitDir: slice, args: ['update-ref', 'refs/heads/main', SLICE_TIP] });
    built = await buildNodeHome({
      home: join(dir, 'home'),
      seed: 'c3'.repeat(32),
      alias: 'seed',
      time: 1_700_000_000,
      repos: [{ name: 'real', history: { kind: 'import', from: slice } }],
    });
    gitDir = repositoryByName(built, 'real').gitDir;
    server = await startTestServer({ home: built.home });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    if (dir !== undefined) await removeTempDir(dir);
  });

  const repo = (): string => `${server.baseUrl}/api/v1/repos/${repositoryByName(built, 'real').rid}`;
  const git = async (args: string[]): Promise<string[]> =>
    (await execGit({ gitDir, args }))
      .toString('utf8')
      .split('\n')
      .filter((line) => line !== '');

  it('attributes every line of the most often changed files as git blame does', async () => {
    const changes = new Map<string, number>();
    for (const path of await git(['log', '--format=', '--name-only', SLICE_TIP])) changes.set(path, (changes.get(path) ?? 0) + 1);
    const present = new Set(await git(['ls-tree', '-r', '--name-only', SLICE_TIP]));
    const files = [...changes]
      .filter(([path]) => present.has(path))
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([path]) => path);
    for (const path of files) {
      const response = await getJson(`${repo()}/blame/${SLICE_TIP}/${path}`);
      expect([path, response.status]).toEqual([path, 200]);
      const blame = response.body as Blame;
      expect({ path, ranges: blame.ranges }).toEqual({ path, ranges: await gitBlameRanges(gitDir, SLICE_TIP, path) });
      expect(new Set(Object.keys(blame.commits))).toEqual(new Set(blame.ranges.map((range) => range.commit)));
    }
  }, 120_000);

  it('names for every entry of the root and of its folders the commit git log names', async () => {
    const folders = ['', ...(await git(['ls-tree', '-d', '--name-only', SLICE_TIP])).slice(0, 4)];
    for (const folder of folders) {
      const response = await getJson(`${repo()}/last-commits/${SLICE_TIP}/${folder}`);
      expect([folder, response.status]).toEqual([folder, 200]);
      const answer = response.body as LastCommits;
      expect(answer.entries.length).toBeGreaterThan(0);
      for (const entry of answer.entries) expect([entry.path, entry.commit.id]).toEqual([entry.path, await gitLastCommit(gitDir, SLICE_TIP, entry.path)]);
    }
  }, 120_000);
});
