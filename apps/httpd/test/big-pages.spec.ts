import type { Socket } from 'node:net';
import { repositoryByName } from '@forge-httpd/builder';
import type { ScratchCommit } from '@forge-httpd/builder/scratch';
import { getJson, metricValue, noiseText, type ScratchServer, stalledClient, startScratchServer, waitForMetric } from './support/index.js';

// Big pages (diffs, blobs, raw files) while clients leave answers unread: past the bound of
// unsent bytes they are refused with 503, small pages are still served, and once the clients
// are gone big pages are served again.
const T = 1_700_000_000;
const FILE_BYTES = 8 * 1024 * 1024;
/** `--memory-budget 1`: the unsent answers' bound is its floor, 16 MiB. */
const UNSENT_LIMIT = 16 * 1024 * 1024;
const NAMES = ['a', 'b', 'c', 'd'];
/** The send timeout: 5 s while unsent answers pass their bound, so none is cut while they pile up here. */
const SEND_STALL_MS = 30_000;

const COMMITS: ScratchCommit[] = [
  { message: 'Big files\n', time: T, changes: NAMES.map((name) => ({ path: `${name}.txt`, content: noiseText(name, FILE_BYTES) })) },
  { message: 'Small file\n', time: T + 60, changes: [{ path: 'small.txt', content: 'small\n' }] },
];

let scratch: ScratchServer;

beforeAll(async () => {
  scratch = await startScratchServer({
    name: 'big',
    seed: 'e7'.repeat(32),
    time: T,
    commits: COMMITS,
    metrics: true,
    memoryBudgetMiB: 1,
    sendStallTimeoutMs: SEND_STALL_MS,
  });
}, 120_000);
afterAll(() => scratch?.close());

const rid = () => repositoryByName(scratch.built, 'big').rid;

const metric = (name: string) => metricValue(scratch.server.metricsUrl, name);
const unsentBytes = () => metric('forge_http_unsent_bytes');

describe('big pages while clients leave answers unread', () => {
  it('are refused past the bound, small pages are served meanwhile, and big ones again once stalled clients are cut off or left', async () => {
    const stalled: Socket[] = [];
    try {
      // Raw files of 8 MB, each only partly taken by the kernel, until their rest passes the bound.
      for (let at = 0; (await unsentBytes()) <= UNSENT_LIMIT && at < 16; at++) {
        stalled.push(await stalledClient(scratch.server.baseUrl, `/raw/${rid()}/${scratch.ids[1]}/${NAMES[at % NAMES.length] ?? 'a'}.txt`));
        // The kernel takes what it can in a turn or two.
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await unsentBytes()).toBeGreaterThan(UNSENT_LIMIT);
      const blob = `${scratch.server.baseUrl}/api/v1/repos/${rid()}/blob/${scratch.ids[1]}/small.txt`;
      const refused = await fetch(blob);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).not.toBeNull();
      expect(await refused.json()).toEqual({ error: expect.any(String), code: 503 });
      expect((await fetch(`${scratch.server.baseUrl}/raw/${rid()}/${scratch.ids[1]}/small.txt`)).status).toBe(503);
      // Pages that are never big are served.
      expect((await getJson(`${scratch.server.baseUrl}/api/v1/repos/${rid()}/tree/${scratch.ids[1]}/`)).status).toBe(200);
      expect((await getJson(`${scratch.server.baseUrl}/api/v1/node`)).status).toBe(200);
      // Under that pressure stalled clients are cut off after a sixth of the send timeout.
      const cut = await metric('forge_http_send_stalls_total');
      await waitForMetric(scratch.server.metricsUrl, 'forge_http_unsent_bytes', (bytes) => bytes <= UNSENT_LIMIT, 15_000);
      expect(await metric('forge_http_send_stalls_total')).toBeGreaterThan(cut);
      expect((await fetch(blob)).status).toBe(200);
    } finally {
      for (const socket of stalled) socket.destroy();
    }
    await waitForMetric(scratch.server.metricsUrl, 'forge_http_unsent_bytes', (bytes) => bytes === 0);
    const served = await getJson(`${scratch.server.baseUrl}/api/v1/repos/${rid()}/blob/${scratch.ids[1]}/small.txt`);
    expect(served.status).toBe(200);
    expect((served.body as { content: string }).content).toBe('small\n');
  }, 60_000);
});
