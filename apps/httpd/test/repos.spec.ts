import { oidHexFromRid } from '@forge-httpd/identity';
import type { RepoInfo, RepoSearchResult } from '@forge-httpd/api-types';
import { ABSENT_RID, expectGolden, getJson, useFixtureServer } from './support/index.js';

const fixture = useFixtureServer();
const NOT_FOUND = '{"error":"Not Found","code":404}';

async function listRids(path: string): Promise<string[]> {
  const response = await getJson(fixture.url(path));
  expect(response.status).toBe(200);
  return (response.body as { rid: string }[]).map((item) => item.rid);
}

function byRawBytes(rids: readonly string[]): string[] {
  return [...rids].sort((a, b) => oidHexFromRid(a).localeCompare(oidHexFromRid(b)));
}

describe('GET /repos', () => {
  it('lists the pinned repositories by default, leaving out private, unseeded and absent pins', async () => {
    const response = await getJson(fixture.url('/api/v1/repos'));
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBeNull();
    expect((response.body as RepoInfo[]).map((repo) => repo.rid)).toEqual([fixture.rid('alpha')]);
    expectGolden('repos-pinned', response.body);
  });

  it('lists every public seeded repository with show=all, sorted by the RID raw bytes', async () => {
    const response = await getJson(fixture.url('/api/v1/repos?show=all'));
    const rids = (response.body as RepoInfo[]).map((repo) => repo.rid);
    const expected = ['alpha', 'beta', 'gamma-alpha', 'Alphabet'].map((name) => fixture.rid(name));
    expect(rids).toEqual(byRawBytes(expected));
    expectGolden('repos-all', response.body);
  });

  it.each([
    ['show=all&perPage=2', [0, 1]],
    ['show=all&perPage=2&page=1', [2, 3]],
    ['show=all&perPage=3&page=1', [3]],
    ['show=all&perPage=2&page=2', []],
    ['show=all&perPage=0', []],
    ['show=all&page=9007199254740991&perPage=9007199254740991', []],
    ['show=all&page=0&perPage=9007199254740991', [0, 1, 2, 3]],
  ])('paginates %s', async (query, indexes) => {
    const all = await listRids('/api/v1/repos?show=all');
    expect(await listRids(`/api/v1/repos?${query}`)).toEqual(indexes.map((index) => all[index]));
  });

  it('ignores unknown query keys', async () => {
    expect(await listRids('/api/v1/repos?show=all&sort=seeding&x=1')).toHaveLength(4);
  });
});

describe('GET /repos/{rid}', () => {
  it('answers repository info with payloads, delegates (aliases), seeding count and canonical refs', async () => {
    const response = await getJson(fixture.url(`/api/v1/repos/${fixture.rid('beta')}`));
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBeNull();
    expectGolden('repo-beta', response.body);
  });

  it('accepts the RID without its rad: prefix', async () => {
    const rid = fixture.rid('alpha');
    const withPrefix = await getJson(fixture.url(`/api/v1/repos/${rid}`));
    const withoutPrefix = await getJson(fixture.url(`/api/v1/repos/${rid.slice('rad:'.length)}`));
    expect(withoutPrefix.status).toBe(200);
    expect(withoutPrefix.text).toBe(withPrefix.text);
  });

  it('answers a private repository exactly like an absent one', async () => {
    const secret = await getJson(fixture.url(`/api/v1/repos/${fixture.rid('secret')}`));
    const absent = await getJson(fixture.url(`/api/v1/repos/${ABSENT_RID}`));
    expect([secret.status, absent.status]).toEqual([404, 404]);
    expect(secret.text).toBe(NOT_FOUND);
    expect(absent.text).toBe(NOT_FOUND);
    expect(secret.headers.get('content-length')).toBe(absent.headers.get('content-length'));
  });

  it('serves a public repository the node does not seed', async () => {
    expect((await getJson(fixture.url(`/api/v1/repos/${fixture.rid('blocked')}`))).status).toBe(200);
  });

  it('answers 400 naming the rid for a malformed RID', async () => {
    const response = await getJson(fixture.url('/api/v1/repos/rad:notbase58!'));
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'Invalid rid: expected rad:z… (base58 of 20 bytes)', code: 400 });
  });
});

describe('GET /repos/search', () => {
  it('orders matches at position 0 first, then by seeds descending, ignoring case', async () => {
    const response = await getJson(fixture.url('/api/v1/repos/search?q=ALPHA'));
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=600, must-revalidate');
    const names = (response.body as RepoSearchResult[]).map((item) => item.rid);
    expect(names).toEqual([fixture.rid('Alphabet'), fixture.rid('alpha'), fixture.rid('gamma-alpha')]);
    expectGolden('repos-search-alpha', response.body);
  });

  it('matches every public project for an empty or missing q, without a seeding filter', async () => {
    const rids = await listRids('/api/v1/repos/search?perPage=100');
    expect(new Set(rids)).toEqual(new Set(['alpha', 'beta', 'gamma-alpha', 'Alphabet', 'blocked'].map((name) => fixture.rid(name))));
    expect(await listRids('/api/v1/repos/search?q=&perPage=100')).toEqual(rids);
    // Seeds descending: Alphabet 4, alpha 3, beta 2, gamma-alpha 1, blocked 0 (no routing row).
    expect(rids).toEqual(['Alphabet', 'alpha', 'beta', 'gamma-alpha', 'blocked'].map((name) => fixture.rid(name)));
  });

  it('defaults perPage to 10 and paginates', async () => {
    const all = await listRids('/api/v1/repos/search');
    expect(all).toHaveLength(5);
    expect(await listRids('/api/v1/repos/search?perPage=2&page=1')).toEqual(all.slice(2, 4));
    expect(await listRids('/api/v1/repos/search?perPage=2&page=3')).toEqual([]);
  });

  it('never finds a private repository', async () => {
    expect(await listRids('/api/v1/repos/search?q=secret')).toEqual([]);
  });

  it('answers [] when nothing matches', async () => {
    expect(await listRids('/api/v1/repos/search?q=zzz%2F..%2F')).toEqual([]);
  });

  it('also matches descriptions, after every name match', async () => {
    expect(await listRids('/api/v1/repos/search?q=Two%20DELEGATES')).toEqual([fixture.rid('beta')]);
    // `alpha` is in three names and in two descriptions of those: the names decide their places.
    expect(await listRids('/api/v1/repos/search?q=matches%20alpha')).toEqual(['Alphabet', 'gamma-alpha'].map((name) => fixture.rid(name)));
    // Names holding a `t` first (Alphabet, beta; Part A's order), then descriptions holding one.
    const both = (await getJson(fixture.url('/api/v1/repos/search?q=t')).then((response) => response.body)) as RepoSearchResult[];
    const names = both.map((item) => (item.payloads['xyz.forge.project'] as { name: string }).name);
    expect(names.slice(0, 2)).toEqual(['Alphabet', 'beta']);
    expect(names).toContain('alpha');
  });

  it('tolerates one typo in words of five letters or more, ranking those matches last by seeds', async () => {
    expect(await listRids('/api/v1/repos/search?q=delegtes')).toEqual([fixture.rid('beta')]);
    expect(await listRids('/api/v1/repos/search?q=the%20frist')).toEqual([fixture.rid('alpha')]);
    const swapped = (await getJson(fixture.url('/api/v1/repos/search?q=alpah'))).body as RepoSearchResult[];
    expect(swapped.map((item) => item.rid)).toEqual(['Alphabet', 'alpha', 'gamma-alpha'].map((name) => fixture.rid(name)));
    expect(swapped.map((item) => item.seeds)).toEqual([...swapped.map((item) => item.seeds)].sort((a, b) => b - a));
    // Two typos, or one in a short word, match nothing; nor does a private repository's description.
    expect(await listRids('/api/v1/repos/search?q=delgetes')).toEqual([]);
    expect(await listRids('/api/v1/repos/search?q=bta')).toEqual([]);
    expect(await listRids('/api/v1/repos/search?q=privte')).toEqual([]);
  });
});

describe('GET /delegates/{did}/repos', () => {
  it('lists the public repositories a delegate maintains, without a seeding filter', async () => {
    const response = await getJson(fixture.url(`/api/v1/delegates/${fixture.did('seed')}/repos?show=all`));
    const rids = (response.body as RepoInfo[]).map((repo) => repo.rid);
    const expected = ['alpha', 'beta', 'gamma-alpha', 'Alphabet', 'blocked'].map((name) => fixture.rid(name));
    expect(rids).toEqual(byRawBytes(expected));
  });

  it('lists only repositories whose delegates include the DID', async () => {
    const response = await getJson(fixture.url(`/api/v1/delegates/${fixture.did('bob')}/repos?show=all`));
    expect(response.status).toBe(200);
    expect((response.body as RepoInfo[]).map((repo) => repo.rid)).toEqual([fixture.rid('beta')]);
    expectGolden('delegates-bob-all', response.body);
  });

  it('takes the pinned repositories by default (public ones, seeded or not)', async () => {
    const rids = await listRids(`/api/v1/delegates/${fixture.did('seed')}/repos`);
    expect(rids).toEqual(byRawBytes([fixture.rid('alpha'), fixture.rid('blocked')]));
  });

  it('defaults perPage to 10 and paginates', async () => {
    const base = `/api/v1/delegates/${fixture.did('seed')}/repos?show=all`;
    const all = await listRids(base);
    expect(await listRids(`${base}&perPage=2&page=1`)).toEqual(all.slice(2, 4));
    expect(await listRids(`${base}&perPage=2&page=5`)).toEqual([]);
  });

  it('answers [] for a DID that delegates nothing', async () => {
    expect(await listRids(`/api/v1/delegates/${fixture.did('dave')}/repos?show=all`)).toEqual([]);
  });
});
