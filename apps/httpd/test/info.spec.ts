import { expectGolden, getJson, useFixtureServer } from './support/index.js';

const fixture = useFixtureServer();

describe('informational routes', () => {
  it.each([
    ['/', 'info-root'],
    ['/api', 'info-api'],
    ['/api/v1', 'info-api-v1'],
    ['/api/v1/stats', 'info-stats'],
  ])('GET %s answers its fixed body without Cache-Control', async (path, golden) => {
    const response = await getJson(fixture.url(path));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBeNull();
    expectGolden(golden, response.body);
  });

  it('names the local node and the package version in /api/v1', async () => {
    const { body } = await getJson(fixture.url('/api/v1'));
    expect(body).toMatchObject({ nid: fixture.built.nid, version: '0.1.0', apiVersion: '6.1.0' });
  });

  it('counts the routing rows of the local node in /api/v1/stats', async () => {
    // The local node announced the public repositories it seeds: not the private or blocked one.
    expect((await getJson(fixture.url('/api/v1/stats'))).body).toEqual({ repos: { total: 4 } });
  });

  it.each(['/api/', '/api/v1/', '/api/v2', '/nothing', '/api/v1/repos/', '/api/v1/node/'])(
    'answers the JSON 404 body for the unknown route %s',
    async (path) => {
      const response = await getJson(fixture.url(path));
      expect(response.status).toBe(404);
      expect(response.text).toBe('{"error":"Not Found","code":404}');
    },
  );
});
