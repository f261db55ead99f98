import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { CompareResponse, RepoInfo } from '@forge-httpd/api-types';
import { ensureDemoHome } from '../src/config/demo-home.js';
import { getJson, makeTempDir, removeTempDir, startTestServer, type TestServer } from './support/index.js';

// Compare by the names of canonical tags (annotated and lightweight) and of a branch whose name
// holds a `/`, on the demo home, whose release repository has both.
let cacheRoot: string;
let home: string;
let server: TestServer;

beforeAll(async () => {
  cacheRoot = await makeTempDir();
  home = await ensureDemoHome({ cacheRoot, version: '9.9.9', flavour: 'forge', log: () => undefined });
  server = await startTestServer({ home });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await removeTempDir(cacheRoot);
});

/** The first listed repository with canonical tags, and its info. */
async function taggedRepository(): Promise<RepoInfo> {
  const listed = (await getJson(`${server.baseUrl}/api/v1/repos?show=all&perPage=100`)).body as RepoInfo[];
  const tagged = listed.find((info) => Object.keys(info.refs.tags).length > 0 && Object.keys(info.refs.refs).some((name) => name.slice(11).includes('/')));
  if (tagged === undefined) throw new Error('the demo home has no repository with tags and a branch named with a slash');
  return tagged;
}

describe('GET /repos/{rid}/compare/{base}...{head} by name', () => {
  it('resolves each canonical tag to its commit and a branch written with %2F to its tip', async () => {
    const info = await taggedRepository();
    const branch = Object.keys(info.refs.refs).find((name) => name.slice(11).includes('/')) as string;
    const gitDir = join(home, 'storage', info.rid.replace(/^rad:/, ''));
    for (const [tagRef, tag] of Object.entries(info.refs.tags)) {
      const range = `${encodeURIComponent(tagRef.slice('refs/tags/'.length))}...${encodeURIComponent(branch.slice('refs/heads/'.length))}`;
      const response = await getJson(`${server.baseUrl}/api/v1/repos/${info.rid}/compare/${range}`);
      expect(response.status).toBe(200);
      const body = response.body as CompareResponse;
      expect([body.base, body.head]).toEqual([tag.commit, info.refs.refs[branch]]);
      expect(response.headers.get('cache-control')).toBeNull();
      // The same counts as git's on the stored repository.
      const counts = spawnSync('git', [`--git-dir=${gitDir}`, 'rev-list', '--left-right', '--count', `${tag.commit}...${body.head}`], {
        env: { PATH: process.env['PATH'], LC_ALL: 'C' },
      });
      const [behind, ahead] = counts.stdout.toString().trim().split(/\s+/).map(Number);
      expect([body.behind, body.ahead]).toEqual([behind, ahead]);
    }
  });
});
