import { join } from 'node:path';
import { createIssue } from '@forge-httpd/cob/write';
import { type BuiltHome, peerByAlias, repositoryByName } from '@forge-httpd/builder';
import { buildFixtureHome, getJson, makeTempDir, removeTempDir, startTestServer, type TestServer } from './support/index.js';

const TREE_ROUTE = '/api/v1/repos/:rid/tree/:sha/*';

let dir: string;
let built: BuiltHome;
let server: TestServer;

beforeAll(async () => {
  dir = await makeTempDir();
  built = await buildFixtureHome(join(dir, 'home'));
  const bob = peerByAlias(built.context, 'bob');
  const context = {
    gitDir: repositoryByName(built, 'alpha').gitDir,
    keyPair: bob.keyPair,
    alias: bob.alias,
    time: built.context.clock.tick(),
    flavour: 'forge' as const,
  };
  await createIssue(context, { title: 'Counted', description: 'Evaluated once for the metrics.' });
  server = await startTestServer({ home: built.home, metrics: true });
  await server.server.home.storageIndex.ready();
});

afterAll(async () => {
  await server.close();
  await removeTempDir(dir);
});

const metricsText = async (): Promise<string> => (await fetch(`${server.metricsUrl}/metrics`)).text();

/** The value of one sample line (`name{labels} value`), or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('request log', () => {
  it('logs each request once with its route pattern, status, bytes and cache outcome', async () => {
    const alpha = repositoryByName(built, 'alpha');
    const path = `/api/v1/repos/${alpha.rid}/tree/${alpha.head}/`;
    const first = await getJson(`${server.baseUrl}${path}`);
    await getJson(`${server.baseUrl}${path}`);
    const lines = server.requestLog.filter((line) => line['path'] === path);
    expect(lines).toEqual([
      expect.objectContaining({ msg: 'request', method: 'GET', route: TREE_ROUTE, status: 200, bytes: Buffer.byteLength(first.text), cache: 'miss' }),
      expect.objectContaining({ msg: 'request', method: 'GET', route: TREE_ROUTE, status: 200, bytes: Buffer.byteLength(first.text), cache: 'hit' }),
    ]);
    expect(lines[0]?.['reqId']).not.toEqual(lines[1]?.['reqId']);
  });

  it('logs the path without its query at info, so a query naming a private repository stays out', async () => {
    const secret = repositoryByName(built, 'secret');
    await getJson(`${server.baseUrl}/api/v1/repos?show=all&q=${secret.rid}`);
    const line = server.requestLog.find((entry) => entry['route'] === '/api/v1/repos');
    expect(line).toEqual(expect.objectContaining({ path: '/api/v1/repos', status: 200 }));
    expect(JSON.stringify(server.requestLog)).not.toContain(secret.rid);
  });

  it('logs requests no route matched with the route "-"', async () => {
    await fetch(`${server.baseUrl}/nowhere?x=1`);
    expect(server.requestLog).toContainEqual(expect.objectContaining({ route: '-', path: '/nowhere', status: 404 }));
  });
});

describe('metrics listener', () => {
  it('counts requests by route pattern and status, and response cache hits', async () => {
    const beta = repositoryByName(built, 'beta');
    const url = `${server.baseUrl}/api/v1/repos/${beta.rid}/tree/${beta.head}/`;
    const before = await metricsText();
    const series = `forge_http_requests_total{method="GET",route="${TREE_ROUTE}",status="200"}`;
    await fetch(url);
    await fetch(url);
    const after = await metricsText();
    expect((sample(after, series) ?? 0) - (sample(before, series) ?? 0)).toBe(2);
    expect(sample(after, `forge_http_request_duration_seconds_count{method="GET",route="${TREE_ROUTE}",status="200"}`)).toBe(sample(after, series));
    expect((sample(after, 'forge_response_cache_hits_total') ?? 0) - (sample(before, 'forge_response_cache_hits_total') ?? 0)).toBe(1);
    expect(sample(after, 'forge_response_cache_bytes')).toBeGreaterThan(0);
    // Far below half its bound here: every answer is kept on its first rendering.
    expect(sample(after, 'forge_response_cache_deferred_total')).toBe(0);
  });

  it('reports git processes, the storage index, COB evaluations and process metrics', async () => {
    const alpha = repositoryByName(built, 'alpha').rid;
    await getJson(`${server.baseUrl}/api/v1/repos/${alpha}/issues?state=all`);
    // Objects come from the pack and loose files in process; git is asked about absent ones.
    expect((await fetch(`${server.baseUrl}/api/v1/repos/${alpha}/commits/${'0'.repeat(40)}`)).status).toBe(404);
    const text = await metricsText();
    expect(sample(text, 'forge_git_processes_spawned_total{kind="cat-file"}')).toBeGreaterThan(0);
    expect(sample(text, 'forge_git_processes_running{kind="server"}')).toBe(0);
    expect(sample(text, 'forge_git_server_slots_free')).toBe(4);
    expect(sample(text, 'forge_storage_index_repositories')).toBe(server.server.home.storageIndex.stats().repositories);
    expect(sample(text, 'forge_storage_index_freshness_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'forge_cob_evaluation_seconds_count{type="xyz.forge.issue"}')).toBeGreaterThan(0);
    expect(sample(text, 'forge_open_repositories')).toBe(server.server.home.storage.openRepositories);
    expect(sample(text, 'forge_open_repositories')).toBeGreaterThan(0);
    expect(sample(text, 'forge_held_commit_id_bytes')).toBe(0);
    // This home has no uncached answer big enough to compress (http-caching.spec.ts keeps some).
    expect([sample(text, 'forge_compressed_bodies_bytes'), sample(text, 'forge_compressed_bodies_hits_total')]).toEqual([0, 0]);
    expect(sample(text, 'forge_http_send_stalls_total')).toBe(0);
    expect(sample(text, 'forge_cob_stores')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'forge_cob_store_bytes')).toBeGreaterThan(0);
    expect(sample(text, 'forge_cob_store_max_bytes')).toBe(18 * 1024 * 1024);
    expect(sample(text, 'forge_ready')).toBe(1);
    for (const name of ['forge_process_resident_memory_bytes', 'forge_nodejs_heap_size_used_bytes', 'forge_nodejs_eventloop_lag_seconds']) {
      expect(sample(text, name)).toBeGreaterThan(0);
    }
    expect(text).toContain('# TYPE forge_cob_dropped_changes_total counter');
  });

  it.each(['metrics', 'api'])('answers /readyz 200 once the storage index is built (%s port)', async (port) => {
    const base = port === 'metrics' ? server.metricsUrl : server.baseUrl;
    const response = await fetch(`${base}/readyz`);
    expect([response.status, response.headers.get('cache-control'), await response.json()]).toEqual([200, 'no-store', { status: 'ready' }]);
  });

  it('answers 404 on the metrics listener for other paths', async () => {
    expect((await fetch(`${server.metricsUrl}/api/v1/node`)).status).toBe(404);
  });
});
