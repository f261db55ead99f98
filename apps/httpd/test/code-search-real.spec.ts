import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { Commit, CompareResponse, GrepResponse } from '@forge-httpd/api-types';
import { type BuiltHome, buildNodeHome, repositoryByName } from '@forge-httpd/builder';
import { getJson, makeTempDir, removeTempDir, startTestServer, type TestServer } from './support/index.js';

// A real history: this repository's own, cloned and imported by the builder, searched, filtered
// and compared through the server and by the git CLI on the same stored repository.
const root = join(import.meta.dirname, '..', '..', '..');
let dir: string;
let built: BuiltHome;
let server: TestServer;

const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', LC_ALL: 'C' };

function git(args: readonly string[], gitDir = repositoryByName(built, 'self').gitDir): string[] {
  const result = spawnSync('git', [`--git-dir=${gitDir}`, '-c', 'core.quotePath=false', ...args], { env, maxBuffer: 256 * 1024 * 1024 });
  if (result.status !== 0 && result.status !== 1) throw new Error(`git ${args[0]} failed: ${result.stderr.toString()}`);
  return result.stdout
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '');
}

beforeAll(async () => {
  dir = await makeTempDir();
  const source = join(dir, 'source.git');
  const clone = spawnSync('git', ['clone', '--bare', '--quiet', '--no-local', '--single-branch', root, source], { env });
  if (clone.status !== 0) throw new Error(`git clone failed: ${clone.stderr.toString()}`);
  const history = { kind: 'import' as const, from: source, sourceRef: 'HEAD' };
  built = await buildNodeHome({ home: join(dir, 'home'), seed: 'c0'.repeat(32), alias: 'seed', time: 1_700_000_000, repos: [{ name: 'self', history }] });
  server = await startTestServer({ home: built.home });
}, 120_000);
afterAll(async () => {
  await server?.close();
  if (dir !== undefined) await removeTempDir(dir);
});

const repo = (): string => `${server.baseUrl}/api/v1/repos/${repositoryByName(built, 'self').rid}`;
const head = (): string => git(['rev-parse', 'HEAD'])[0] as string;

describe('on a real history', () => {
  it.each(['StorageRuntime', 'export function', 'TODO'])('grep %j answers what git grep prints, up to 1,000 matches', async (q) => {
    const sha = head();
    const response = await getJson(`${repo()}/grep/${sha}?q=${encodeURIComponent(q)}`);
    const { matches, truncated } = response.body as GrepResponse;
    const expected = git(['grep', '-F', '-n', '-I', '--no-color', '-e', q, sha, '--']).map((line) => {
      const rest = line.slice(sha.length + 1);
      const [, path = '', number = '', text = ''] = /^(.*?):(\d+):(.*)$/s.exec(rest) ?? [];
      return { path, line: Number(number), text: Array.from(text).slice(0, 1000).join('') };
    });
    expect(truncated).toBe(expected.length > 1000);
    expect(matches).toEqual(expected.slice(0, 1000));
  });

  it.each(['README.md', 'libs/storage', 'package.json'])('the history of %j is what git rev-list names', async (path) => {
    const response = await getJson(`${repo()}/commits?since=-1&path=${encodeURIComponent(path)}`);
    expect((response.body as Commit[]).map((commit) => commit.id)).toEqual(git(['--literal-pathspecs', 'rev-list', 'HEAD', '--', path]));
  });

  it('an author filter lists what git rev-list -i -F --author names, page by page', async () => {
    const email = git(['log', '-1', '--format=%ae', 'HEAD'])[0] as string;
    const expected = git(['rev-list', '-i', '-F', `--author=${email}`, 'HEAD']);
    const page = await getJson(`${repo()}/commits?author=${encodeURIComponent(email.toUpperCase())}&page=1&perPage=7`);
    expect((page.body as Commit[]).map((commit) => commit.id)).toEqual(expected.slice(7, 14));
  });

  it('compare counts, merge base and commits are what git says', async () => {
    const [base, tip] = [git(['rev-parse', 'HEAD~40'])[0] as string, head()];
    const response = await getJson(`${repo()}/compare/${base}...main`);
    expect(response.status).toBe(200);
    const body = response.body as CompareResponse;
    const [behind, ahead] = (git(['rev-list', '--left-right', '--count', `${base}...${tip}`])[0] as string).split(/\s+/).map(Number);
    expect({ head: body.head, ahead: body.ahead, behind: body.behind, mergeBase: body.mergeBase }).toEqual({
      head: tip,
      ahead,
      behind,
      mergeBase: git(['merge-base', base, tip])[0],
    });
    expect(body.commits.map((commit) => commit.id)).toEqual(git(['rev-list', '--max-count=250', tip, `^${base}`]));
  });
});
