import { connect } from 'node:net';
import { repositoryByName } from '@forge-httpd/builder';
import type { RangeDiffResponse } from '@forge-httpd/api-types';
import type { ScratchCommit } from '@forge-httpd/builder/scratch';
import { getJson, metricValue, type ScratchServer, stalledClient, startScratchServer, waitForMetric } from './support/index.js';

// Long answers (a range over a whole history, a listing without a page size) hold their commit
// ids while they are written; those ids are bounded together, and every way such an answer ends
// lets them go.
const T = 1_700_000_000;
const COUNT = 900;
/** Long messages: a whole range's answer is ~8 MB, more than loopback's socket buffers take (~4 MB here). */
const COMMITS: ScratchCommit[] = Array.from({ length: COUNT }, (_, i) => ({
  message: `Step ${i}\n\n${`Line of step ${i}, long enough to make a big answer.\n`.repeat(200)}`,
  time: T + i * 60,
  changes: [{ path: `file-${i % 11}.txt`, content: `step ${i}\n` }],
}));
const TIP = COUNT - 1;
/** A range whose base is a later commit lists the whole history of `MIDDLE`: 801 commits, 545 past the 256 read first. */
const MIDDLE = 800;
/** One such range's ids (545 × 20 bytes) fit, two do not. */
const BOUND = 16_000;

let scratch: ScratchServer;

beforeAll(async () => {
  scratch = await startScratchServer({ name: 'held', seed: 'e6'.repeat(32), time: T, commits: COMMITS, metrics: true, heldCommitIdBytes: BOUND });
}, 120_000);
afterAll(() => scratch?.close());

const repoPath = () => `/api/v1/repos/${repositoryByName(scratch.built, 'held').rid}`;
const longRange = () => `${repoPath()}/diff/${scratch.ids[TIP]}/${scratch.ids[MIDDLE]}`;

const heldBytes = () => metricValue(scratch.server.metricsUrl, 'forge_held_commit_id_bytes');

/** Waits until no ids are held (answers end a turn or two after their sockets close), at most 5 s. */
async function nothingHeld(): Promise<void> {
  expect(await waitForMetric(scratch.server.metricsUrl, 'forge_held_commit_id_bytes', (bytes) => bytes === 0)).toBe(0);
}

describe('commit ids held by long answers', () => {
  it('are let go once such an answer was read whole', async () => {
    const response = await getJson(`${scratch.server.baseUrl}${longRange()}`);
    expect(response.status).toBe(200);
    expect((response.body as RangeDiffResponse).commits).toHaveLength(MIDDLE + 1);
    await nothingHeld();
  });

  it('are bounded: past the bound another long answer gets 503, short ones are served', async () => {
    const reader = await stalledClient(scratch.server.baseUrl, longRange());
    try {
      expect(await heldBytes()).toBeGreaterThan(0);
      const refused = await fetch(`${scratch.server.baseUrl}${longRange()}`);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).not.toBeNull();
      expect(await refused.json()).toEqual({ error: expect.any(String), code: 503 });
      // A listing without a page size that would be written as it is read, likewise.
      expect((await fetch(`${scratch.server.baseUrl}${repoPath()}/commits?since=${T}`)).status).toBe(503);
      // A range near enough to be read at once holds no ids.
      const near = await getJson(`${scratch.server.baseUrl}${repoPath()}/diff/${scratch.ids[MIDDLE - 5]}/${scratch.ids[MIDDLE]}`);
      expect(near.status).toBe(200);
      expect((near.body as RangeDiffResponse).commits).toHaveLength(5);
    } finally {
      reader.destroy();
    }
    await nothingHeld();
    const again = await fetch(`${scratch.server.baseUrl}${longRange()}`);
    expect(again.status).toBe(200);
    await again.arrayBuffer();
  });

  it('are let go by every way such an answer ends', async () => {
    // A client that leaves after the first bytes, compressed or not.
    for (const encoding of ['identity', 'gzip', 'br']) {
      const { hostname, port } = new URL(scratch.server.baseUrl);
      await new Promise<void>((resolve, reject) => {
        const socket = connect(Number(port), hostname);
        socket.on('error', reject);
        socket.on('close', () => resolve());
        socket.once('data', () => socket.destroy());
        socket.write(`GET ${longRange()} HTTP/1.1\r\nHost: x\r\nAccept-Encoding: ${encoding}\r\n\r\n`);
      });
      await nothingHeld();
    }
    // A client that leaves before the answer starts.
    const { hostname, port } = new URL(scratch.server.baseUrl);
    const early = connect(Number(port), hostname);
    early.write(`GET ${longRange()} HTTP/1.1\r\nHost: x\r\n\r\n`, () => early.destroy());
    await nothingHeld();
    // HEAD, and a listing written as it is read.
    expect((await fetch(`${scratch.server.baseUrl}${longRange()}`, { method: 'HEAD' })).status).toBe(200);
    await nothingHeld();
    const listing = await getJson(`${scratch.server.baseUrl}${repoPath()}/commits?since=${T}`);
    expect(listing.status).toBe(200);
    expect(listing.body as unknown[]).toHaveLength(COUNT);
    await nothingHeld();
  });
});
