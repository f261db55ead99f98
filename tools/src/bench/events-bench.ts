/**
 * Event-stream benchmark (issue 50): how soon a ref written to storage reaches the clients of
 * `GET /api/v1/events`, how many events per second the server delivers with many clients
 * connected, and what those clients cost in resident memory.
 *
 * It builds a small node home (or uses `--home`), starts the built server in its own process,
 * measures its RSS, opens `--clients` streams, measures again, then:
 *  1. latency: `--writes` times, writes one top-level ref (`refs/tags/bench-<n>`) with the
 *     storage write side and times until the first and until every client received its `refs`
 *     event (p50 / p99);
 *  2. throughput: writes `--batch` issue refs at once in one repository (one `issue` event each)
 *     and times until every client received all of them: events × clients / time.
 *
 * usage (from the repository root, after `npm run build`):
 *   node tools/dist/bench/events-bench.js [--clients 1000] [--writes 40] [--batch 500] [--home DIR]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildNodeHome } from '@forge-httpd/builder';
import type { Oid } from '@forge-httpd/storage';
import { updateRefs } from '@forge-httpd/storage/write';
import { startForge } from './forge-server.js';
import { readRss } from './processes.js';

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '1000' },
    writes: { type: 'string', default: '40' },
    batch: { type: 'string', default: '500' },
    home: { type: 'string' },
  },
});
const CLIENTS = Number(values.clients);
const WRITES = Number(values.writes);
const BATCH = Number(values.batch);
const WAIT_MS = 60_000;
/** The server's default time between two looks at storage (apps/httpd/src/events/event-stream-options.ts). */
const POLL_MS = 1000;

/** One open stream: its `issue` events counted, and the text of its other frames since the last reset. */
class StreamClient {
  private pending = '';
  private text = '';
  issues = 0;
  ready = false;
  constructor(readonly request: ClientRequest) {}

  receive(chunk: string): void {
    this.pending += chunk;
    let end = this.pending.indexOf('\n\n');
    while (end >= 0) {
      const frame = this.pending.slice(0, end);
      this.pending = this.pending.slice(end + 2);
      if (frame.includes('\nevent: issue\n')) this.issues += 1;
      else if (frame === ': ready') this.ready = true;
      else this.text += frame;
      end = this.pending.indexOf('\n\n');
    }
  }

  /** Whether `marker` arrived since the last reset. */
  has(marker: string): boolean {
    return this.text.includes(marker);
  }

  reset(): void {
    this.text = '';
    this.issues = 0;
  }
}

function openClient(baseUrl: string): Promise<StreamClient> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${baseUrl}/api/v1/events`, { agent: false }, (response) => {
      if (response.statusCode !== 200) return reject(new Error(`stream answered ${response.statusCode}`));
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => client.receive(chunk));
      resolve(client);
    });
    const client = new StreamClient(request);
    request.on('error', reject);
    request.end();
  });
}

/** Polls every millisecond until `done` holds; returns the time it first held. */
async function until(done: () => boolean, what: string): Promise<number> {
  const deadline = Date.now() + WAIT_MS;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${WAIT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return performance.now();
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
}

async function measureLatency(clients: readonly StreamClient[], repo: { gitDir: string; head: Oid }): Promise<{ first: number[]; all: number[] }> {
  const first: number[] = [];
  const all: number[] = [];
  for (let write = 0; write < WRITES; write += 1) {
    const marker = `"refs/tags/bench-${write}"`;
    for (const client of clients) client.reset();
    // Writes land at a random point of the server's poll period, as a node's would.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * POLL_MS));
    const start = performance.now();
    await updateRefs(repo.gitDir, [{ name: `refs/tags/bench-${write}`, oid: repo.head }]);
    first.push((await until(() => clients.some((client) => client.has(marker)), 'first client')) - start);
    all.push((await until(() => clients.every((client) => client.has(marker)), 'every client')) - start);
  }
  return { first: first.sort((a, b) => a - b), all: all.sort((a, b) => a - b) };
}

async function measureThroughput(
  clients: readonly StreamClient[],
  repo: { gitDir: string; head: Oid; nid: string },
): Promise<{ ms: number; fanOutMs: number; deliveries: number }> {
  for (const client of clients) client.reset();
  const updates = Array.from({ length: BATCH }, (_, index) => ({
    name: `refs/namespaces/${repo.nid}/refs/cobs/xyz.forge.issue/b${index.toString(16).padStart(39, '0')}`,
    oid: repo.head,
  }));
  const start = performance.now();
  await updateRefs(repo.gitDir, updates);
  const first = await until(() => clients.some((client) => client.issues > 0), 'a first event');
  const end = await until(() => clients.every((client) => client.issues >= BATCH), 'every event at every client');
  return { ms: end - start, fanOutMs: end - first, deliveries: BATCH * clients.length };
}

const mib = (bytes: number | null): string => (bytes === null ? '?' : `${(bytes / 1024 / 1024).toFixed(1)} MiB`);

async function main(): Promise<void> {
  const scratch = await mkdtemp(path.join(tmpdir(), 'forge-events-bench-'));
  const home = values.home ?? path.join(scratch, 'home');
  const built = await buildNodeHome({
    home,
    seed: 'be'.repeat(32),
    alias: 'bench',
    repos: Array.from({ length: 10 }, (_, index) => ({ name: `repo-${index}` })),
  });
  const repo = { ...(built.repos[0] as { gitDir: string; head: Oid }), nid: built.nid };
  const server = await startForge(home, { waitForStartup: true });
  const clients: StreamClient[] = [];
  try {
    const idle = await readRss(server.pid);
    for (let index = 0; index < CLIENTS; index += 1) clients.push(await openClient(server.baseUrl));
    await until(() => clients.every((client) => client.ready), 'every stream ready');
    const connected = await readRss(server.pid);
    const latency = await measureLatency(clients, repo);
    const burst = await measureThroughput(clients, repo);
    const after = await readRss(server.pid);
    console.log(`event streams: ${CLIENTS} clients, ${WRITES} ref writes, a batch of ${BATCH} issue refs (node ${process.version})`);
    console.log(`RSS: ${mib(idle)} with no client, ${mib(connected)} with ${CLIENTS} clients, ${mib(after)} after the runs`);
    const ms = (values: number[], p: number): string => `${percentile(values, p).toFixed(0)} ms`;
    console.log(`ref write → event, first client: p50 ${ms(latency.first, 50)}, p99 ${ms(latency.first, 99)}`);
    console.log(`ref write → event, every client: p50 ${ms(latency.all, 50)}, p99 ${ms(latency.all, 99)}`);
    const rate = (ms: number): number => Math.round(burst.deliveries / (ms / 1000));
    console.log(`burst: ${burst.deliveries} deliveries, ${burst.ms.toFixed(0)} ms from the write (${rate(burst.ms)} events/s)`);
    console.log(`burst fan-out: first event at a client → last event at every client ${burst.fanOutMs.toFixed(0)} ms (${rate(burst.fanOutMs)} events/s)`);
  } finally {
    for (const client of clients) client.request.destroy();
    await server.stop();
    await rm(scratch, { recursive: true, force: true });
  }
}

await main();
