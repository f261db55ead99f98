/**
 * Long fuzz runs: `npm run fuzz -- --requests 100000 [--seed N] [--concurrency 8]`.
 * Builds a node home (public repositories, a private one, peers), starts the built server as a
 * child process, sends generated requests over every route it registered (the generators of
 * apps/httpd/test/fuzz-routes.spec.ts) and reports requests sent, 5xx answers, other problems,
 * crashes and the server's RSS before and after. Exits 1 on any 5xx, problem or crash.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ridDirectoryName, ridFromOid } from '@forge-httpd/identity';
import fc from 'fast-check';
import { buildNodeHome, repositoryByName } from '@forge-httpd/builder';
import { REPO_ROOT } from '../bench/forge-server.js';
import { freePort, readRss, spawnServer, stopChild, waitForHttp } from '../bench/processes.js';
import { findFuzzProblem, fuzzRequestArbitrary, type FuzzValues, type PrivateData, type RouteTemplate, sendFuzzRequest } from './fuzz-requests.js';

const CHUNK = 1000;

interface ServerModule {
  startServer: (options: { config: unknown; logger: false; log: () => void }) => Promise<{ app: unknown; close: () => Promise<void> }>;
}
interface AppFactoryModule {
  routesOf: (app: unknown) => readonly RouteTemplate[];
}
interface ServerConfigModule {
  ServerConfig: { create: (fields: Record<string, unknown>) => unknown };
}

/** The routes the server registers, read from an in-process app over the same home. */
async function registeredRoutes(home: string): Promise<readonly RouteTemplate[]> {
  const dist = path.join(REPO_ROOT, 'apps', 'httpd', 'dist');
  await import('reflect-metadata');
  // The built server, loaded by path (tools do not depend on the app package): typed here.
  const [{ startServer }, { routesOf }, { ServerConfig }] = (await Promise.all([
    import(path.join(dist, 'server.js')),
    import(path.join(dist, 'app.factory.js')),
    import(path.join(dist, 'config', 'server-config.js')),
  ])) as [ServerModule, AppFactoryModule, ServerConfigModule];
  const config = ServerConfig.create({
    home,
    homeSource: 'flag',
    flavour: 'forge',
    flavourReason: 'fuzz',
    socketPath: path.join(home, 'no.sock'),
    listen: { kind: 'tcp', host: '127.0.0.1', port: 0 },
    version: 'fuzz',
  });
  const server = await startServer({ config, logger: false, log: () => undefined });
  const routes = [...routesOf(server.app)];
  await server.close();
  return routes;
}

/** The run's size, seed and parallelism, from the command line. */
interface FuzzFlags {
  readonly total: number;
  readonly seed: number;
  readonly concurrency: number;
}

function parseFuzzFlags(): FuzzFlags {
  const { values: flags } = parseArgs({
    options: { requests: { type: 'string', default: '10000' }, seed: { type: 'string', default: '20261123' }, concurrency: { type: 'string', default: '8' } },
  });
  return { total: Number(flags.requests), seed: Number(flags.seed), concurrency: Number(flags.concurrency) };
}

/** The fuzzed node home, the values requests are made of and what no answer may reveal. */
interface FuzzHome {
  readonly home: string;
  readonly values: FuzzValues;
  readonly hidden: PrivateData;
}

async function buildFuzzHome(dir: string): Promise<FuzzHome> {
  const built = await buildNodeHome({
    home: path.join(dir, 'home'),
    seed: 'f022'.padEnd(64, '0'),
    alias: 'seed',
    time: 1700000000,
    peers: [{ alias: 'bob' }, { alias: 'carol', known: false }],
    repos: [
      { name: 'alpha', seeds: ['bob'] },
      { name: 'beta', delegates: ['bob'], threshold: 1, repack: true },
      { name: 'secret', private: true },
    ],
  });
  const secret = repositoryByName(built, 'secret');
  const alpha = repositoryByName(built, 'alpha');
  const values: FuzzValues = {
    rids: [...built.repos.map((repo) => repo.rid as string), ridFromOid('0123456789abcdef0123456789abcdef01234567')],
    oids: built.repos.flatMap((repo) => [repo.head, repo.identityHead]),
    nids: [built.nid, ...[...built.context.peers.values()].map((peer) => peer.keyPair.nid)],
    paths: alpha.headTip === null ? ['README.md'] : Object.keys(alpha.headTip.files),
  };
  const hidden: PrivateData = {
    rids: [ridDirectoryName(secret.rid)],
    secrets: [ridDirectoryName(secret.rid), secret.identityHead],
    unfilteredPrefixes: ['/api/v1/node/policies/', '/api/v1/nodes/', '/api/v1/stats'],
  };
  return { home: built.home, values, hidden };
}

/** The server's exits seen so far: any exit while fuzzing is a crash. */
interface CrashCount {
  crashes: number;
}

/** What the requests met. */
interface FuzzResults {
  readonly sent: number;
  /** Answers by status. */
  readonly statuses: ReadonlyMap<number, number>;
  readonly problems: readonly string[];
}

interface SendFuzzRequestsOptions {
  readonly flags: FuzzFlags;
  readonly baseUrl: string;
  readonly routes: readonly RouteTemplate[];
  readonly home: FuzzHome;
  readonly server: CrashCount;
  readonly agent: Agent;
}

/** Sends generated requests in chunks, `concurrency` at a time, until all are sent or the server crashed. */
async function sendFuzzRequests({ flags, baseUrl, routes, home, server, agent }: SendFuzzRequestsOptions): Promise<FuzzResults> {
  const arbitrary = fuzzRequestArbitrary(routes, home.values);
  const statuses = new Map<number, number>();
  const problems: string[] = [];
  let sent = 0;
  for (let chunk = 0; sent < flags.total && server.crashes === 0; chunk += 1) {
    const requests = fc.sample(arbitrary, { seed: flags.seed + chunk, numRuns: Math.min(CHUNK, flags.total - sent) });
    let next = 0;
    const worker = async (): Promise<void> => {
      for (let request = requests[next++]; request !== undefined && server.crashes === 0; request = requests[next++]) {
        sent += 1;
        try {
          const answer = await sendFuzzRequest(baseUrl, request, agent);
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          const problem = findFuzzProblem(request, answer, home.hidden);
          if (problem !== null) problems.push(`${request.method} ${request.path}: ${problem}`);
        } catch (error) {
          problems.push(`${request.method} ${request.path}: ${(error as Error).message}`);
        }
      }
    };
    await Promise.all(Array.from({ length: flags.concurrency }, worker));
    if (chunk % 10 === 9) process.stderr.write(`${sent} requests, ${problems.length} problems\n`);
  }
  return { sent, statuses, problems };
}

interface FuzzReport {
  readonly flags: FuzzFlags;
  readonly routes: readonly RouteTemplate[];
  readonly results: FuzzResults;
  readonly seconds: number;
  readonly crashes: number;
  /** Whether the server still answered `/api/v1` at the end. */
  readonly answersApi: boolean;
  readonly rssBefore: number | null;
  readonly rssAfter: number | null;
}

/**
 * Prints the run's figures and up to 20 problems.
 * @returns the exit code: 1 on any 5xx, problem or crash
 */
function printFuzzReport({ flags, routes, results, seconds, crashes, answersApi, rssBefore, rssAfter }: FuzzReport): number {
  const { sent, statuses, problems } = results;
  const fivexx = [...statuses].filter(([status]) => status >= 500).reduce((sum, [, count]) => sum + count, 0);
  const mb = (bytes: number | null): string => (bytes === null ? '–' : `${(bytes / 1048576).toFixed(1)} MB`);
  console.log(`routes fuzzed:   ${new Set(routes.map((route) => route.url)).size} (${routes.length} with methods), seed ${flags.seed}`);
  console.log(`requests sent:   ${sent} in ${seconds.toFixed(1)} s (${Math.round(sent / seconds)} req/s, concurrency ${flags.concurrency})`);
  console.log(
    `statuses:        ${[...statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status}×${count}`)
      .join(' ')}`,
  );
  console.log(`5xx answers:     ${fivexx}`);
  console.log(`other problems:  ${problems.length - fivexx}`);
  console.log(`crashes:         ${crashes}${answersApi ? '' : ' (server no longer answers /api/v1)'}`);
  console.log(`server RSS:      ${mb(rssBefore)} before, ${mb(rssAfter)} after`);
  for (const problem of problems.slice(0, 20)) console.log(`  ${problem}`);
  return fivexx > 0 || problems.length > 0 || crashes > 0 || !answersApi ? 1 : 0;
}

/** Fuzzes the built server running as a child process over `home`, and reports. */
async function fuzzServer(flags: FuzzFlags, home: FuzzHome, routes: readonly RouteTemplate[], dir: string): Promise<number> {
  const port = await freePort();
  const main = path.join(REPO_ROOT, 'apps', 'httpd', 'dist', 'main.js');
  const server = spawnServer(process.execPath, [main, '--home', home.home, '--listen', `127.0.0.1:${port}`], {
    env: { ...process.env, RAD_SOCKET: path.join(dir, 'no.sock') },
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const watch: CrashCount = { crashes: 0 };
  server.child.once('exit', (code, signal) => {
    watch.crashes += 1;
    process.stderr.write(`server exited (${signal ?? code}):\n${server.log()}\n`);
  });
  try {
    await waitForHttp(`${baseUrl}/api/v1`, 30_000, server.child);
    const pid = server.child.pid ?? 0;
    const rssBefore = await readRss(pid);
    const agent = new Agent({ keepAlive: true, maxSockets: flags.concurrency });
    const started = Date.now();
    const results = await sendFuzzRequests({ flags, baseUrl, routes, home, server: watch, agent });
    agent.destroy();
    const answersApi =
      watch.crashes === 0 &&
      (await fetch(`${baseUrl}/api/v1`).then(
        (response) => response.ok,
        () => false,
      ));
    const rssAfter = await readRss(pid);
    const seconds = (Date.now() - started) / 1000;
    return printFuzzReport({ flags, routes, results, seconds, crashes: watch.crashes, answersApi, rssBefore, rssAfter });
  } finally {
    server.child.removeAllListeners('exit');
    await stopChild(server.child);
  }
}

async function main(): Promise<void> {
  const flags = parseFuzzFlags();
  const dir = await mkdtemp(path.join(tmpdir(), 'forge-fuzz-'));
  try {
    const home = await buildFuzzHome(dir);
    const routes = await registeredRoutes(home.home);
    process.exitCode = await fuzzServer(flags, home, routes, dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
