/**
 * Micro-benchmark of forge-httpd's warm, commit-addressed routes (commit, tree, blob, readme,
 * diff) against the HTTP ceiling: a bare Fastify server answering the identical status, headers
 * and bytes. forge-httpd runs in this process; the demo home is built and the ceiling served by
 * child processes of this same file, so neither pollutes the other's heap or inline caches.
 * Also measured: the event loop during cold requests, JSON.stringify of the largest body, a
 * trivial request while the heavy routes are saturated, and RSS.
 *
 * Build and run (the app is compiled from source next to this file; no `tsc -b` needed):
 *   npx tsc -p tmp/http-bench-tsconfig.json
 *   node tmp/http-bench-dist/tools/src/bench/http-cache-bench.js [--seconds 5] [--concurrency 16]
 */
import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Fastify from 'fastify';
import { buildDemoHome, repositoryByName } from '@forge-httpd/builder';
import { type LoadResult, runWrk } from './wrk.js';

/** One raw answer: status, headers (hop-by-hop ones dropped) and body bytes. */
interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

type StartServer = (options: { config: unknown; logger: false; log: (message: string) => void }) => Promise<{
  address: { port?: number };
  close(): Promise<void>;
}>;

const HERE = fileURLToPath(import.meta.url);
const HOP_HEADERS = new Set(['content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);
const MB = 1024 * 1024;

/** GETs `url` without Accept-Encoding (as wrk does) and returns the raw answer. */
function rawGet(url: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const kept: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) {
          if (!HOP_HEADERS.has(name) && typeof value === 'string') kept[name] = value;
        }
        resolve({ status: res.statusCode ?? 0, headers: kept, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Marks the one line of a child's output that is its answer. */
const ANSWER = '@@ ';

/** Runs this file in a child process with a role; resolves with its answer line. */
function child(args: string[]): Promise<{ line: string; stop: () => void }> {
  const proc = spawn(process.execPath, [HERE, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    createInterface({ input: proc.stdout }).on('line', (line) => {
      if (line.startsWith(ANSWER)) resolve({ line: line.slice(ANSWER.length), stop: () => proc.stdin.end() });
    });
    proc.once('exit', (code) => reject(new Error(`bench child ${args[1]} exited ${code}`)));
  });
}

/** Child role: the ceiling, serving captured answers until stdin closes. */
async function serveCeiling(capturesFile: string): Promise<void> {
  const captured = JSON.parse(await readFile(capturesFile, 'utf8')) as [string, RawResponse & { body: string }][];
  const answers = new Map(captured.map(([url, answer]) => [url, { ...answer, body: Buffer.from(answer.body, 'base64') }]));
  const app = Fastify({ logger: false });
  app.get('/*', (request, reply) => {
    const hit = answers.get(request.url);
    if (hit === undefined) return reply.code(404).send();
    return reply.code(hit.status).headers(hit.headers).send(hit.body);
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  console.log(`${ANSWER}${typeof address === 'object' && address !== null ? address.port : 0}`);
  process.stdin.resume().once('end', () => void app.close());
}

/** Starts forge-httpd in this process on `home` (no control socket): compiled sources next to this file, else apps/httpd/dist. */
async function startForge(home: string): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const dirs = ['../../../apps/httpd/src', '../../../apps/httpd/dist'].map((dir) => path.resolve(path.dirname(HERE), dir));
  const dir = dirs.find((candidate) => existsSync(path.join(candidate, 'server.js')));
  if (dir === undefined) throw new Error(`forge-httpd not found in ${dirs.join(' or ')}`);
  const load = (file: string): Promise<Record<string, unknown>> => import(pathToFileURL(path.join(dir, file)).href);
  const startServer = (await load('server.js'))['startServer'] as StartServer;
  const ServerConfig = (await load('config/server-config.js'))['ServerConfig'] as { create(fields: object): unknown };
  const config = ServerConfig.create({
    home,
    homeSource: 'flag',
    flavour: 'forge',
    flavourReason: 'benchmark',
    socketPath: path.join(os.tmpdir(), 'forge-bench-none.sock'),
    listen: { kind: 'tcp', host: '127.0.0.1', port: 0 },
    version: 'bench',
  });
  const server = await startServer({ config, logger: false, log: () => undefined });
  return { baseUrl: `http://127.0.0.1:${server.address.port ?? 0}`, close: () => server.close() };
}

interface CommitItem {
  id: string;
}
interface TreeBody {
  entries: { name: string; kind: string }[];
}

/**
 * The benchmarked URLs on the demo's largest repository, found with cold requests (timed, with
 * the event loop's longest stall): the commit with the largest detail, the head's tree, a file,
 * the readme, and the diff over the last 30 commits.
 */
async function pickRoutes(baseUrl: string, rid: string): Promise<{ routes: Record<string, string>; coldMs: number; stallMs: number }> {
  const repo = `/api/v1/repos/${rid}`;
  const commits = JSON.parse((await rawGet(`${baseUrl}${repo}/commits?perPage=60`)).body.toString()) as CommitItem[];
  const head = commits[0]?.id ?? '';
  const stall = monitorEventLoopDelay({ resolution: 5 });
  stall.enable();
  let [commit, largest, coldMs] = [`${repo}/commits/${head}`, 0, 0];
  for (const item of commits) {
    const start = performance.now();
    const size = (await rawGet(`${baseUrl}${repo}/commits/${item.id}`)).body.length;
    if (size > largest) [largest, commit, coldMs] = [size, `${repo}/commits/${item.id}`, performance.now() - start];
  }
  const tree = JSON.parse((await rawGet(`${baseUrl}${repo}/tree/${head}/`)).body.toString()) as TreeBody;
  const file = tree.entries.find((entry) => entry.kind === 'blob' && entry.name === 'package.json') ?? tree.entries.find((entry) => entry.kind === 'blob');
  const base = commits[Math.min(commits.length - 1, 30)]?.id ?? head;
  const routes = {
    commit,
    tree: `${repo}/tree/${head}/`,
    blob: `${repo}/blob/${head}/${file?.name ?? 'README.md'}`,
    readme: `${repo}/readme/${head}`,
    diff: `${repo}/diff/${base}/${head}`,
  };
  await rawGet(baseUrl + routes.diff);
  stall.disable();
  return { routes, coldMs, stallMs: stall.max / 1e6 };
}

/** Median time of JSON.stringify over the parsed body (the known blocking case). */
function stringifyMs(body: Buffer): number {
  const value: unknown = JSON.parse(body.toString('utf8'));
  const times = [0, 1, 2, 3, 4].map(() => {
    const start = performance.now();
    JSON.stringify(value);
    return performance.now() - start;
  });
  return times.sort((a, b) => a - b)[2] ?? NaN;
}

function flag(argv: readonly string[], name: string): string | undefined {
  const index = argv.indexOf(name);
  return index === -1 ? undefined : argv[index + 1];
}

const fmt = (n: number, digits = 1): string => n.toFixed(digits);
const rssMb = (): string => fmt(process.memoryUsage().rss / MB, 0);
const latency = (r: LoadResult): string => `${fmt(r.p50, 2)}/${fmt(r.p99, 2)}`;

function row(name: string, runs: { forge: LoadResult; ceiling: LoadResult; bytes: number }): string {
  const { forge, ceiling } = runs;
  return [
    name.padEnd(7),
    `${fmt(runs.bytes / 1024)} KiB`.padStart(11),
    fmt(forge.rps, 0).padStart(8),
    latency(forge).padStart(12),
    fmt(ceiling.rps, 0).padStart(8),
    latency(ceiling).padStart(12),
    `${fmt((100 * forge.rps) / ceiling.rps, 0)}%`.padStart(6),
    String(forge.errors).padStart(4),
    rssMb().padStart(5),
  ].join(' ');
}

/** Writes the captured answers for the ceiling child and starts it. */
async function startCeiling(captured: Map<string, RawResponse>, scratchDir: string): Promise<{ baseUrl: string; stop: () => void }> {
  const file = path.join(scratchDir, 'captured.json');
  await writeFile(file, JSON.stringify([...captured].map(([url, r]) => [url, { ...r, body: r.body.toString('base64') }])));
  const ceiling = await child(['--role', 'ceiling', file]);
  return { baseUrl: `http://127.0.0.1:${ceiling.line}`, stop: ceiling.stop };
}

async function main(argv: readonly string[]): Promise<void> {
  const seconds = Number(flag(argv, '--seconds') ?? 5);
  const concurrency = Number(flag(argv, '--concurrency') ?? 16);
  const scratchDir = await mkdtemp(path.join(os.tmpdir(), 'forge-'));
  try {
    const demo = JSON.parse((await child(['--role', 'build', path.join(scratchDir, 'home')])).line) as { home: string; rid: string };
    const forge = await startForge(demo.home);
    const { routes, coldMs, stallMs } = await pickRoutes(forge.baseUrl, demo.rid);
    const captured = new Map<string, RawResponse>();
    for (const url of Object.values(routes)) captured.set(url, await rawGet(forge.baseUrl + url));
    const largest = [...captured.values()].reduce((a, b) => (a.body.length >= b.body.length ? a : b));
    console.log(`cold: largest commit ${fmt(coldMs)} ms; longest event-loop stall during the cold requests ${fmt(stallMs)} ms`);
    console.log(`largest body ${fmt(largest.body.length / 1024)} KiB: JSON.stringify ${fmt(stringifyMs(largest.body), 2)} ms`);
    console.log(`wrk -t1 -c${concurrency} -d${seconds}s; latency p50/p99 ms; RSS MB of this process after the forge run`);
    console.log('route         body  forge/s  forge p50/99  ceil/s   ceil p50/99  ratio  err   RSS');
    const ceiling = await startCeiling(captured, scratchDir);
    for (const [name, url] of Object.entries(routes)) {
      const run = (baseUrl: string): Promise<LoadResult> => runWrk({ baseUrl, paths: [url], concurrency, seconds, scratchDir });
      const forgeRun = await run(forge.baseUrl);
      console.log(row(name, { forge: forgeRun, ceiling: await run(ceiling.baseUrl), bytes: captured.get(url)?.body.length ?? 0 }));
    }
    ceiling.stop();
    const [heavy, trivial] = await Promise.all([
      runWrk({ baseUrl: forge.baseUrl, paths: Object.values(routes), concurrency, seconds, scratchDir }),
      runWrk({ baseUrl: forge.baseUrl, paths: ['/api/v1/node'], concurrency: 1, seconds, scratchDir }),
    ]);
    console.log(
      `heavy mix ${fmt(heavy.rps, 0)} req/s (p99 ${fmt(heavy.p99, 2)} ms) while /api/v1/node p50 ${fmt(trivial.p50, 2)} ms p99 ${fmt(trivial.p99, 2)} ms (${trivial.requests} requests); RSS ${rssMb()} MB`,
    );
    await forge.close();
  } finally {
    await rm(scratchDir, { recursive: true, force: true });
  }
}

async function run(argv: readonly string[]): Promise<void> {
  const role = flag(argv, '--role');
  if (role === 'ceiling') return serveCeiling(argv[2] ?? '');
  if (role !== 'build') return main(argv);
  const built = await buildDemoHome(argv[2] ?? '');
  console.log(`${ANSWER}${JSON.stringify({ home: built.home, rid: repositoryByName(built, 'forge-httpd').rid })}`);
  process.exit(0);
}

run(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
