import { ABSENT_RID, expectGolden, getJson, useFixtureServer } from './support/index.js';

const fixture = useFixtureServer();
// A valid NID that the fixture home has never heard of (docs/node-home.md §2.4 vector).
const UNKNOWN_NID = 'z6MktWkM9vcfysWFq1c2aaLjJ6j4PYYg93TLPswR4qtuoAeT';

describe('GET /nodes/{nid}', () => {
  it('answers alias, DID and SSH forms of a followed node (follow alias wins)', async () => {
    const response = await getJson(fixture.url(`/api/v1/nodes/${fixture.nid('bob')}`));
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBeNull();
    expect(response.body).toMatchObject({ alias: 'bobby', did: fixture.did('bob') });
    expectGolden('nodes-bob', response.body);
  });

  it.each([
    ['carol', 'carol'],
    ['seed', 'seed'],
    ['dave', null],
  ])('shows the alias of %s as %j', async (alias, expected) => {
    const response = await getJson(fixture.url(`/api/v1/nodes/${fixture.nid(alias)}`));
    expect((response.body as { alias: unknown }).alias).toBe(expected);
  });

  it('answers null alias and the key forms for a node it never heard of', async () => {
    const response = await getJson(fixture.url(`/api/v1/nodes/${UNKNOWN_NID}`));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      alias: null,
      did: `did:key:${UNKNOWN_NID}`,
      ssh: {
        full: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAINDoXIrhcnRjnLGUXUFdxhkuy08lkTOwrj2IoGsEX6+Q',
        hash: 'SHA256:gE/Ty4fuXzww49lcnNe9/GI0L7xSEQdFp/v9tOjFwB4',
      },
    });
  });

  it.each(['abc', `did:key:${UNKNOWN_NID}`, UNKNOWN_NID.slice(0, -1), `${UNKNOWN_NID}a`])('answers 400 naming the nid for %j', async (nid) => {
    const response = await getJson(fixture.url(`/api/v1/nodes/${encodeURIComponent(nid)}`));
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'Invalid nid: expected z6Mk… (a node id)', code: 400 });
  });
});

describe('GET /nodes/{nid}/inventory', () => {
  it('lists the RIDs a node announced, ascending, private ones included', async () => {
    const response = await getJson(fixture.url(`/api/v1/nodes/${fixture.nid('bob')}/inventory`));
    expect(response.status).toBe(200);
    const expected = [fixture.rid('alpha'), fixture.rid('Alphabet'), fixture.rid('secret')].sort();
    expect(response.body).toEqual(expected);
    expectGolden('nodes-bob-inventory', response.body);
  });

  it('answers [] for an unknown node', async () => {
    expect((await getJson(fixture.url(`/api/v1/nodes/${UNKNOWN_NID}/inventory`))).body).toEqual([]);
  });
});

describe('GET /node/policies/repos', () => {
  it('lists stored seeding policies in table order, private and blocked ones included', async () => {
    const response = await getJson(fixture.url('/api/v1/node/policies/repos'));
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBeNull();
    const rids = ['alpha', 'beta', 'gamma-alpha', 'Alphabet', 'secret', 'blocked'].map((name) => fixture.rid(name));
    expect((response.body as { rid: string }[]).map((item) => item.rid)).toEqual(rids);
    expectGolden('node-policies', response.body);
  });
});

describe('GET /node/policies/repos/{rid}', () => {
  it.each([
    ['alpha', { policy: 'allow', scope: 'all' }],
    ['blocked', { policy: 'block' }],
    ['secret', { policy: 'allow', scope: 'all' }],
  ])('answers the stored policy of %s', async (name, policy) => {
    const response = await getJson(fixture.url(`/api/v1/node/policies/repos/${fixture.rid(name)}`));
    expect(response.status).toBe(200);
    expect(response.text).toBe(JSON.stringify(policy));
  });

  it('answers the default policy of config.json for a RID without a row', async () => {
    const response = await getJson(fixture.url(`/api/v1/node/policies/repos/${ABSENT_RID}`));
    expect(response.body).toEqual({ policy: 'block' });
  });

  it('accepts the RID without rad:', async () => {
    const rid = fixture.rid('blocked').slice('rad:'.length);
    expect((await getJson(fixture.url(`/api/v1/node/policies/repos/${rid}`))).body).toEqual({ policy: 'block' });
  });

  it('answers 400 for a malformed RID', async () => {
    const response = await getJson(fixture.url('/api/v1/node/policies/repos/rad:z0OIl'));
    expect(response.body).toEqual({ error: 'Invalid rid: expected rad:z… (base58 of 20 bytes)', code: 400 });
  });
});
