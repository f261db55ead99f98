import { connect, type Socket } from 'node:net';
import { repositoryByName } from '@forge-httpd/builder';
import type { ScratchCommit } from '@forge-httpd/builder/scratch';
import { getJson, metricValue, noiseText, type ScratchServer, startScratchServer, waitForMetric } from './support/index.js';

// Clients that stop reading an answer: they are cut off once no byte was taken for the send
// timeout, while slow readers and answers being computed are not.
const T = 1_700_000_000;
const STALL_MS = 400;
/** Bytes of each big file: three of them make an archive far larger than loopback's socket buffers. */
const FILE_BYTES = 8 * 1024 * 1024;

const COMMITS: ScratchCommit[] = [
  { message: 'Big files\n', time: T, changes: ['a', 'b', 'c'].map((name) => ({ path: `${name}.txt`, content: noiseText(name, FILE_BYTES) })) },
  { message: 'Small file\n', time: T + 60, changes: [{ path: 'small.txt', content: 'small\n' }] },
];

let scratch: ScratchServer;

beforeAll(async () => {
  scratch = await startScratchServer({ name: 'stall', seed: 'e5'.repeat(32), time: T, commits: COMMITS, sendStallTimeoutMs: STALL_MS, metrics: true });
}, 120_000);
afterAll(() => scratch?.close());

const rid = () => repositoryByName(scratch.built, 'stall').rid;
const archivePath = () => `/raw/${rid()}/${scratch.ids[1]}.tar`;

/** What a raw client received before the server closed the connection. */
interface Received {
  status: number;
  /** Bytes after the header. */
  body: Buffer;
}

/**
 * Asks for `path` on a raw connection and reads the answer as `read` says: `read(socket)` is
 * called once the request is sent and decides when to pause and resume. Resolves once the
 * server closed the connection.
 */
function download(path: string, read: (socket: Socket) => void): Promise<Received> {
  const { hostname, port } = new URL(scratch.server.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const all = Buffer.concat(chunks);
      const end = all.indexOf('\r\n\r\n');
      resolve({ status: Number(all.subarray(0, end).toString('latin1').split(' ')[1]), body: all.subarray(end + 4) });
    });
    socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    read(socket);
  });
}

/** A chunked body's last chunk: the answer was sent whole. */
const LAST_CHUNK = Buffer.from('\r\n0\r\n\r\n');

const metric = (name: string) => metricValue(scratch.server.metricsUrl, name);

/** Waits until the clone/archive pool has `slots` free again (its processes end as they are killed), at most 10 s. */
async function slotsBack(slots: number): Promise<void> {
  expect(await waitForMetric(scratch.server.metricsUrl, 'forge_git_server_slots_free', (free) => free === slots, 10_000)).toBe(slots);
}

describe('clients that stop reading an answer', () => {
  let whole: Received;

  it('is not applied to a client that reads slowly but keeps taking bytes', async () => {
    const before = await metric('forge_http_send_stalls_total');
    whole = await download(archivePath(), (socket) => {
      // Reads in short bursts with pauses shorter than the send timeout.
      socket.pause();
      const reader = setInterval(() => {
        socket.resume();
        setTimeout(() => socket.pause(), 5);
      }, STALL_MS / 4);
      socket.once('close', () => clearInterval(reader));
    });
    expect(whole.status).toBe(200);
    expect(whole.body.length).toBeGreaterThan(3 * FILE_BYTES);
    expect(whole.body.subarray(-LAST_CHUNK.length)).toEqual(LAST_CHUNK);
    expect(await metric('forge_http_send_stalls_total')).toBe(before);
  }, 60_000);

  it('are cut off once they took nothing for the send timeout, and the archive process stops', async () => {
    const before = await metric('forge_http_send_stalls_total');
    const slots = await metric('forge_git_server_slots_free');
    const stalled = download(archivePath(), (socket) => {
      socket.pause();
      // Long past the send timeout: the server has closed its end by then.
      setTimeout(() => socket.resume(), STALL_MS * 6);
    });
    // Other clients are served meanwhile.
    const other = await getJson(`${scratch.server.baseUrl}/api/v1/repos/${rid()}/commits`);
    expect(other.status).toBe(200);
    const received = await stalled;
    expect(received.status).toBe(200);
    expect(received.body.length).toBeGreaterThan(0);
    expect(received.body.length).toBeLessThan(whole.body.length);
    expect(received.body.subarray(-LAST_CHUNK.length)).not.toEqual(LAST_CHUNK);
    expect(await metric('forge_http_send_stalls_total')).toBe(before + 1);
    // The archive's git process is stopped once its output is not wanted.
    await slotsBack(slots);
  }, 30_000);

  it('keeps a connection whose small answer waits unread', async () => {
    const before = await metric('forge_http_send_stalls_total');
    const received = await download(`/raw/${rid()}/${scratch.ids[1]}/small.txt`, (socket) => {
      socket.pause();
      setTimeout(() => socket.resume(), STALL_MS * 3);
    });
    expect(received).toEqual({ status: 200, body: Buffer.from('small\n') });
    expect(await metric('forge_http_send_stalls_total')).toBe(before);
  }, 30_000);
});

describe('clients that leave in the middle of an archive', () => {
  it('free its process slot each time, so later archives are still served', async () => {
    const slots = await metric('forge_git_server_slots_free');
    // More leavers than slots: a slot kept by any of them would turn the last archive into a 503.
    for (let round = 0; round < slots + 2; round++) {
      await download(archivePath(), (socket) => socket.once('data', () => socket.destroy()));
    }
    await slotsBack(slots);
    const response = await fetch(`${scratch.server.baseUrl}${archivePath()}`);
    expect(response.status).toBe(200);
    expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(3 * FILE_BYTES);
  }, 60_000);
});
