import { type ClientRequest, request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { type BuiltHome, repositoryByName } from '@forge-httpd/builder';
import type { Oid } from '@forge-httpd/storage';
import { GitProcesses } from '../src/platform/git-processes.service.js';
import { getBytes, getJson, type ScratchServer, startScratchServer, type TestServer } from './support/index.js';

const T = 1_700_000_000;
const TIMEOUT_MS = 3000;

let scratch: ScratchServer;
let built: BuiltHome;
let server: TestServer;
let ids: Oid[];

beforeAll(async () => {
  scratch = await startScratchServer({
    name: 'bounded',
    seed: 'b0'.repeat(32),
    time: T,
    commits: [{ message: 'One\n', time: T, changes: [{ path: 'README.md', content: 'one\n' }] }],
    gitServerLimits: { maxProcesses: 1, timeoutMs: TIMEOUT_MS },
  });
  ({ built, server, ids } = scratch);
}, 60_000);
afterAll(() => scratch?.close());

const repoUrl = (path: string): string => `${server.baseUrl}/${repositoryByName(built, 'bounded').rid}.git${path}`;
const running = (): number => server.server.app.get(GitProcesses).pool.running;

async function until(condition: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(10);
  }
}

/**
 * A fetch whose request body never ends: git's upload-pack waits for the rest of it, holding
 * its process slot, like a stalled client. Resolves with the status, or 0 when the connection
 * is cut without an answer.
 */
function stalledFetch(): { request: ClientRequest; answer: Promise<{ status: number; body: string }> } {
  const { hostname, port } = new URL(server.baseUrl);
  const path = new URL(repoUrl('/git-upload-pack')).pathname;
  let request!: ClientRequest;
  const answer = new Promise<{ status: number; body: string }>((resolve) => {
    request = httpRequest(
      { host: hostname, port, path, method: 'POST', headers: { 'content-type': 'application/x-git-upload-pack-request', 'git-protocol': 'version=2' } },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        response.on('error', () => resolve({ status: 0, body }));
      },
    );
    request.on('error', () => resolve({ status: 0, body: '' }));
    request.write('0014command=ls-refs\n');
  });
  return { request, answer };
}

describe('bounds of the git server processes', () => {
  it('answers 503 with retry-after past the cap, keeps the JSON API and archive HEADs answering, and frees the slot on hang-up', async () => {
    const stalled = stalledFetch();
    await until(() => running() === 1, 5000);

    const busy = await getJson(repoUrl('/info/refs?service=git-upload-pack'));
    expect(busy.status).toBe(503);
    expect(busy.body).toEqual({ error: 'Service Unavailable: too many git processes running, retry later', code: 503 });
    expect(busy.headers.get('retry-after')).toBe('10');
    expect(busy.headers.get('access-control-allow-origin')).toBe('*');
    const rid = repositoryByName(built, 'bounded').rid;
    expect((await getBytes(`${server.baseUrl}/raw/${rid}/${ids[0]}.zip`)).status).toBe(503);
    expect((await getBytes(`${server.baseUrl}/raw/${rid}/${ids[0]}.zip`, { method: 'HEAD' })).status).toBe(200);

    const info = await getJson(`${server.baseUrl}/api/v1/repos/${rid}`);
    expect(info.status).toBe(200);

    stalled.request.destroy();
    await until(() => running() === 0, 1000);
    expect((await getBytes(repoUrl('/info/refs?service=git-upload-pack'))).status).toBe(200);
  });

  it('kills a process past its time limit', async () => {
    const stalled = stalledFetch();
    await until(() => running() === 1, 5000);
    const answer = await stalled.answer;
    // Nothing was sent yet: the answer is the generic 500 (a process killed mid-stream cuts the connection).
    stalled.request.destroy();
    expect(answer).toEqual({ status: 500, body: '{"error":"Internal Server Error","code":500}' });
    await until(() => running() === 0, 1000);
    expect(server.logs.some((line) => line.includes(`killed after ${TIMEOUT_MS} ms`))).toBe(true);
  }, 10_000);
});
