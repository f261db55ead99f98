import { updateRefs, writeObject } from '@forge-httpd/storage/write';
import { repositoryByName } from '@forge-httpd/builder';
import { getJson, useFixtureServer } from './support/index.js';

const fixture = useFixtureServer();

beforeAll(async () => {
  // Corrupt beta: its identity ref now names a blob instead of an identity commit.
  const { gitDir } = repositoryByName(fixture.built, 'beta');
  const blob = await writeObject(gitDir, 'blob', Buffer.from('not an identity document\n'));
  await updateRefs(gitDir, [{ name: 'refs/rad/id', oid: blob }]);
});

describe('internal failures', () => {
  it('answers a generic 500 for a repository whose identity cannot be loaded, logging the detail once', async () => {
    const logged = fixture.server.logs.length;
    const response = await getJson(fixture.url(`/api/v1/repos/${fixture.rid('beta')}`));
    expect(response.status).toBe(500);
    expect(response.text).toBe('{"error":"Internal Server Error","code":500}');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const lines = fixture.server.logs.slice(logged);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^error GET \/api\/v1\/repos\/rad:z\w+ failed \(request [\w-]+\): /);
  });

  it('skips the unloadable repository in listings and keeps serving', async () => {
    const response = await getJson(fixture.url('/api/v1/repos?show=all'));
    expect(response.status).toBe(200);
    const rids = (response.body as { rid: string }[]).map((repo) => repo.rid);
    expect(rids).toHaveLength(3);
    expect(rids).not.toContain(fixture.rid('beta'));
    const search = await getJson(fixture.url('/api/v1/repos/search?q=beta'));
    expect(search.body).toEqual([]);
    const delegate = await getJson(fixture.url(`/api/v1/delegates/${fixture.did('bob')}/repos?show=all`));
    expect(delegate.body).toEqual([]);
  });
});
