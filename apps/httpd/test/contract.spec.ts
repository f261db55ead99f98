import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError, ContractError, createClient } from '@forge-httpd/api-types';
import { getJson, useFixtureServer } from './support/index.js';

const fixture = useFixtureServer();
const root = join(import.meta.dirname, '..', '..', '..');

describe('the contract', () => {
  it('serves the checked-in OpenAPI document at /api/v1/openapi.json with a short cache', async () => {
    const response = await getJson(fixture.url('/api/v1/openapi.json'));
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=600, must-revalidate');
    expect(response.body).toEqual(JSON.parse(readFileSync(join(root, 'docs', 'openapi.json'), 'utf8')));
  });

  it('lets the typed client read repositories, commits and trees with validated bodies', async () => {
    const client = createClient({ baseUrl: fixture.server.baseUrl });
    const repos = await client.listRepos({ show: 'all', perPage: 2 });
    expect(repos.length).toBe(2);
    const rid = repos[0]?.rid ?? '';
    const commits = await client.listCommits({ rid }, { perPage: 1 });
    const sha = commits[0]?.id ?? '';
    expect((await client.getCommit({ rid, sha })).commit.id).toBe(sha);
    expect((await client.getTreeRoot({ rid, sha })).path).toBe('');
  });

  it('throws ApiError with the status and body of an error answer', async () => {
    const client = createClient({ baseUrl: fixture.server.baseUrl });
    const error = await client.getRepo({ rid: 'rad:z3gqcJUoA1n9HaHKufZs5FCSGazv5' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, body: { error: 'Not Found', code: 404 } });
  });

  it('throws ContractError naming where a 2xx body breaks the contract', async () => {
    const fakeFetch = (async () => new Response(JSON.stringify({ repos: { total: 'many' } }), { status: 200 })) as typeof fetch;
    const error = await createClient({ baseUrl: 'http://x', fetch: fakeFetch })
      .getNodeStats()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ContractError);
    expect((error as ContractError).problems[0]).toContain('repos.total');
  });
});
