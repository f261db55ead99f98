import type { RepoInfo } from '@forge-httpd/api-types';
import { getJson, startTestServer, type TestServer, useFixtureServer } from './support/index.js';

// The fixture home written in the radicle flavour, served by a radicle-flavoured server.
const fixture = useFixtureServer({ flavour: 'radicle' });

describe('--flavour radicle', () => {
  it('shows the xyz.radicle.project payload with its meta', async () => {
    const response = await getJson(fixture.url(`/api/v1/repos/${fixture.rid('alpha')}`));
    expect(response.status).toBe(200);
    const info = response.body as RepoInfo;
    expect(Object.keys(info.payloads)).toEqual(['xyz.radicle.project']);
    expect(info.payloads['xyz.radicle.project']).toMatchObject({
      data: { defaultBranch: 'main', description: 'The first repository', name: 'alpha' },
      meta: { issues: { open: 0, closed: 0 } },
    });
  });

  it('finds radicle projects by name', async () => {
    const response = await getJson(fixture.url('/api/v1/repos/search?q=beta'));
    expect((response.body as { rid: string }[]).map((item) => item.rid)).toEqual([fixture.rid('beta')]);
  });
});

describe('a forge server over a radicle home', () => {
  let forge: TestServer;

  beforeAll(async () => {
    forge = await startTestServer({ home: fixture.built.home, flavour: 'forge' });
  });

  afterAll(async () => {
    await forge?.close();
  });

  it('shows the foreign project payload as plain data, without meta', async () => {
    // The explorer needs the project entry with meta: this documented answer is one it rejects.
    const check = { knownExplorerMismatch: 'a repository without a project of the server flavour (docs/decisions.md "Protocol flavour")' };
    const response = await getJson(`${forge.baseUrl}/api/v1/repos/${fixture.rid('alpha')}`, undefined, check);
    expect(response.status).toBe(200);
    expect((response.body as RepoInfo).payloads).toEqual({
      'xyz.radicle.project': { data: { defaultBranch: 'main', description: 'The first repository', name: 'alpha' } },
    });
    // Without a project of its own flavour there is no default branch, hence no canonical refs.
    expect((response.body as RepoInfo).refs).toEqual({ tags: {}, refs: {} });
  });

  it('does not find repositories without its own project payload', async () => {
    expect((await getJson(`${forge.baseUrl}/api/v1/repos/search`)).body).toEqual([]);
  });

  it.each([['/api/v1/repos?show=all'], ['/api/v1/repos'], ['/delegates/DID/repos?show=all']])(
    'does not list repositories without its own project payload in %s',
    async (path) => {
      const response = await getJson(`${forge.baseUrl}${path.replace('/delegates/DID', `/api/v1/delegates/${fixture.did('seed')}`)}`);
      expect([response.status, response.body]).toEqual([200, []]);
    },
  );
});
