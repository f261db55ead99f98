import { execFileSync } from 'node:child_process';
import type { Commit, RepoInfo, ServerInfo } from '@forge-httpd/api-types';
import { ABSENT_RID, getJson, useFixtureServer } from './support/index.js';

// Routes radicle-httpd added in 0.26/0.27, answered the same way (see README "Routes").
const fixture = useFixtureServer();
const NOT_FOUND = '{"error":"Not Found","code":404}';

function gitDir(name: string): string {
  const repo = fixture.built.repos.find((r) => r.name === name);
  if (repo === undefined) throw new Error(`no repository ${name}`);
  return repo.gitDir;
}

function git(name: string, ...args: string[]): string {
  return execFileSync('git', ['--git-dir', gitDir(name), ...args], { encoding: 'utf8' }).trim();
}

async function history(name: string): Promise<Commit[]> {
  const response = await getJson(fixture.url(`/api/v1/repos/${fixture.rid(name)}/commits?perPage=100`));
  expect(response.status).toBe(200);
  return response.body as Commit[];
}

describe('GET /api/v1/info', () => {
  it('answers the node and says search is available, cached like /node', async () => {
    const [info, node] = await Promise.all([getJson(fixture.url('/api/v1/info')), getJson(fixture.url('/api/v1/node'))]);
    expect(info.status).toBe(200);
    expect(info.headers.get('cache-control')).toBe('public, max-age=600, must-revalidate');
    const body = info.body as ServerInfo;
    expect(Object.keys(body)).toEqual(['node', 'httpd']);
    expect(body.httpd).toEqual({ searchAvailable: true });
    expect(body.node).toEqual(node.body);
  });

  it('is linked from /api/v1', async () => {
    const { body } = await getJson(fixture.url('/api/v1'));
    expect((body as { links: { href: string }[] }).links.map((link) => link.href)).toContain('/info');
  });
});

describe('GET /repos/{rid}/diff/{base}/{oid}/stats', () => {
  it('counts files and lines like git diff --numstat, immutable', async () => {
    const commits = await history('alpha');
    const oid = commits[0]?.id as string;
    const base = commits[commits.length - 1]?.id as string;
    const response = await getJson(fixture.url(`/api/v1/repos/${fixture.rid('alpha')}/diff/${base}/${oid}/stats`));
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=604800, immutable');
    const lines = git('alpha', 'diff', '--numstat', base, oid)
      .split('\n')
      .filter((line) => line !== '');
    const sum = (column: number) => lines.reduce((total, line) => total + (Number(line.split('\t')[column]) || 0), 0);
    expect(response.body).toEqual({ filesChanged: lines.length, insertions: sum(0), deletions: sum(1) });
    expect(lines.length).toBeGreaterThan(0);
  });

  it.each([
    ['an unknown commit', (base: string) => `${base}/${'0'.repeat(40)}`, 404],
    ['a malformed id', (base: string) => `${base}/xyz`, 400],
  ])('answers %s with a JSON error', async (_name, path, status) => {
    const base = (await history('alpha'))[0]?.id as string;
    const response = await getJson(fixture.url(`/api/v1/repos/${fixture.rid('alpha')}/diff/${path(base)}/stats`));
    expect(response.status).toBe(status);
  });

  it('answers a private repository exactly like an absent one', async () => {
    const head = git('secret', 'rev-parse', 'HEAD');
    const [secret, absent] = await Promise.all(
      [fixture.rid('secret'), ABSENT_RID].map((rid) => getJson(fixture.url(`/api/v1/repos/${rid}/diff/${head}/${head}/stats`))),
    );
    expect([secret?.status, secret?.text]).toEqual([404, NOT_FOUND]);
    expect(absent?.text).toBe(secret?.text);
  });
});

describe('GET /repos/{rid}/stats/commits/{sha}', () => {
  it('counts the commits reachable from the commit like git rev-list --count', async () => {
    const commits = await history('alpha');
    for (const commit of [commits[0], commits[commits.length - 1]]) {
      const response = await getJson(fixture.url(`/api/v1/repos/${fixture.rid('alpha')}/stats/commits/${commit?.id}`));
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('public, max-age=604800, immutable');
      expect(response.body).toEqual({ commits: Number(git('alpha', 'rev-list', '--count', commit?.id as string)) });
    }
  });

  it('answers 404 for an unknown commit and for a private repository', async () => {
    const unknown = await getJson(fixture.url(`/api/v1/repos/${fixture.rid('alpha')}/stats/commits/${'1'.repeat(40)}`));
    const head = git('secret', 'rev-parse', 'HEAD');
    const secret = await getJson(fixture.url(`/api/v1/repos/${fixture.rid('secret')}/stats/commits/${head}`));
    expect([unknown.status, secret.status, secret.text]).toEqual([404, 404, NOT_FOUND]);
  });
});

describe('GET /repos?sort=', () => {
  async function rids(query: string): Promise<string[]> {
    const response = await getJson(fixture.url(`/api/v1/repos?${query}`));
    expect(response.status).toBe(200);
    return (response.body as RepoInfo[]).map((repo) => repo.rid);
  }

  it('sorts by seeds, most first, ties by RID bytes', async () => {
    const byRid = await rids('show=all&sort=rid');
    const seeds = new Map<string, number>();
    for (const rid of byRid) seeds.set(rid, ((await getJson(fixture.url(`/api/v1/repos/${rid}`))).body as RepoInfo).seeding);
    const expected = [...byRid].sort((a, b) => (seeds.get(b) ?? 0) - (seeds.get(a) ?? 0));
    expect(await rids('show=all&sort=seeding')).toEqual(expected);
    expect(new Set(seeds.values()).size).toBeGreaterThan(1);
  });

  it('sorts by the head commit time, newest first, ties by RID bytes', async () => {
    const byRid = await rids('show=all&sort=rid');
    const times = new Map<string, number>();
    for (const rid of byRid) {
      const info = (await getJson(fixture.url(`/api/v1/repos/${rid}`))).body as RepoInfo;
      const head = (Object.values(info.payloads)[0] as { meta: { head: string } }).meta.head;
      const commit = (await getJson(fixture.url(`/api/v1/repos/${rid}/commits/${head}`))).body as { commit: Commit };
      times.set(rid, commit.commit.committer.time);
    }
    const expected = [...byRid].sort((a, b) => (times.get(b) ?? 0) - (times.get(a) ?? 0));
    expect(new Set(times.values()).size).toBeGreaterThan(2);
    expect(await rids('show=all&sort=activity')).toEqual(expected);
    expect(await rids('show=all&sort=activity&perPage=2&page=1')).toEqual(expected.slice(2, 4));
  });

  it('orders pinned repositories too, and rejects an unknown sort', async () => {
    expect(await rids('sort=activity')).toEqual([fixture.rid('alpha')]);
    const bad = await getJson(fixture.url('/api/v1/repos?sort=stars'));
    expect(bad.status).toBe(400);
  });
});
