/**
 * Listing micro-benchmark: `/repos?show=all` (also `sort=activity|seeding`), `/repos` (10 pinned
 * repositories), `/repos/search`, `/repos/{rid}` and its issue list on a
 * 10-repository home and on a large one (default 10,000), the large/small latency ratio, the
 * server's peak RSS, the first listing after start, and the p99 of a trivial request while the
 * listings run. Homes are cached under bench-results/cache/listing-<n> (a manifest marks a
 * complete build) and written by `listing-home.ts`.
 *
 * usage (from the repository root): node tools/dist/bench/listing-bench.js [--repos 10000]
 *   [--server apps/httpd/dist/main.js] [--duration 5] [--concurrency 16] [--label after]
 *   [--compare-with /path/to/other/checkout]
 * Results: a Markdown table on stdout and bench-results/listing-<label>-<repos>.json. With
 * `--compare-with`, the other checkout's built server runs next to this one on each home and
 * every route is measured on both in turn (before/after in one run, same load on the machine).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { ensureListingHome, type ListingHome } from './listing-home.js';

const ROOT = process.cwd();
const CACHE = path.join(ROOT, 'bench-results', 'cache');
const API = '/api/v1';
const QUERY = 'repo-000';
/** Repositories pinned in the web settings of every listing home (`/repos` lists them). */
const PINS = 10;

interface RouteResult {
  route: string;
  rps: number;
  meanMs: number;
  p99Ms: number;
  errors: number;
}
interface HomeResult {
  repos: number;
  firstListingMs: number;
  trivialDuringBuildMaxMs: number;
  routes: RouteResult[];
  rssMb: number;
  rssByPhase: Record<string, number>;
  trivialP99Ms: number;
}

function flag(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? (process.argv[index + 1] ?? fallback) : fallback;
}

/** The cached home with `count` repositories, generated when missing. */
function ensureHome(count: number): Promise<ListingHome> {
  return ensureListingHome(CACHE, count, (line) => console.log(`[listing-bench] ${line}`));
}

/**
 * Pins {@link PINS} repositories spread over the RID order in the home's config.json, unless
 * some are pinned already (homes cached before pins were part of the benchmark get them here).
 */
async function ensurePins(home: ListingHome): Promise<void> {
  const file = path.join(home.home, 'config.json');
  const config = JSON.parse(await readFile(file, 'utf8')) as { web?: { pinned?: { repositories?: string[] } } };
  if ((config.web?.pinned?.repositories ?? []).length > 0) return;
  const rids = (await readdir(path.join(home.home, 'storage'))).filter((name) => name.startsWith('z')).map((name) => `rad:${name}`);
  const step = Math.max(1, Math.floor(rids.length / PINS));
  const pinned = rids.filter((_, index) => index % step === 0).slice(0, PINS);
  config.web = { ...config.web, pinned: { repositories: pinned } };
  await writeFile(`${file}.tmp`, `${JSON.stringify(config, null, 2)}\n`);
  await rename(`${file}.tmp`, file);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function startServer(main: string, home: string): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [main, '--home', home, '--listen', `127.0.0.1:${port}`], {
    env: { ...process.env, RAD_SOCKET: path.join(home, 'node', 'no-such.sock') },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (
      await fetch(`${base}${API}`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { child, base };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`server ${main} did not start`);
}

/** wrk on one URL: req/s, mean and p99 latency (ms). */
async function wrk(url: string, options: { connections: number; seconds: number }): Promise<Omit<RouteResult, 'route'>> {
  const args = ['-t1', `-c${options.connections}`, `-d${options.seconds}s`, '--timeout', '30s', '--latency', url];
  const text = await new Promise<string>((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', () => resolve(out));
  });
  const ms = (value: string | undefined, unit: string | undefined): number => Number(value) * ({ us: 0.001, ms: 1, s: 1000 }[unit ?? 'ms'] ?? 1);
  const mean = /Latency\s+([\d.]+)(us|ms|s)/.exec(text);
  const p99 = /^\s+99%\s+([\d.]+)(us|ms|s)/m.exec(text);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(text)?.[1] ?? 0);
  return { rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1]), meanMs: ms(mean?.[1], mean?.[2]), p99Ms: ms(p99?.[1], p99?.[2]), errors: non2xx };
}

/** p99 and max latency (ms) of `GET /api/v1` (no I/O at all) every 10 ms while `busy` runs. */
async function trivialLatency(base: string, busy: Promise<unknown>): Promise<{ p99: number; max: number }> {
  const samples: number[] = [];
  let done = false;
  void busy.finally(() => (done = true));
  while (!done) {
    const started = performance.now();
    await fetch(`${base}${API}`).then((r) => r.arrayBuffer());
    samples.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  samples.sort((a, b) => a - b);
  return { p99: samples[Math.floor(samples.length * 0.99)] ?? NaN, max: samples[samples.length - 1] ?? NaN };
}

/** Route name and URL path of every measured route. */
function routePaths(home: ListingHome): Array<[string, string]> {
  return [
    ['repos', `${API}/repos?show=all`],
    ['repos pinned', `${API}/repos`],
    ['search', `${API}/repos/search?q=${QUERY}`],
    ['repo', `${API}/repos/${home.firstRid}`],
    ['issues', `${API}/repos/${home.firstRid}/issues`],
    ['repos sort=activity', `${API}/repos?show=all&sort=activity`],
    ['repos sort=seeding', `${API}/repos?show=all&sort=seeding`],
  ];
}

async function stopServer(child: ChildProcess): Promise<void> {
  // Wait for the exit: a server still winding down would slow the next one's index build.
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * Both servers on one home at once (indexes built first), every route warmed and measured on
 * one, then on the other: the two columns share the machine's load.
 */
async function compareHome(mains: readonly string[], home: ListingHome, load: { connections: number; seconds: number }): Promise<RouteResult[][]> {
  const servers: Array<{ child: ChildProcess; base: string }> = [];
  try {
    for (const main of mains) servers.push(await startServer(main, home.home));
    for (const { base } of servers) await fetch(`${base}${API}/repos?show=all`).then((r) => r.arrayBuffer());
    const results: RouteResult[][] = mains.map(() => []);
    for (const [route, url] of routePaths(home)) {
      for (const [index, { base }] of servers.entries()) {
        await wrk(`${base}${url}`, { connections: load.connections, seconds: 1 });
        results[index]?.push({ route, ...(await wrk(`${base}${url}`, load)) });
      }
    }
    return results;
  } finally {
    await Promise.all(servers.map(({ child }) => stopServer(child)));
  }
}

function compareReport(homes: Array<{ repos: number; results: RouteResult[][] }>): string {
  const lines = ['| route | repos | this req/s | p99 ms | compared req/s | p99 ms | this ÷ compared |', '|---|---:|---:|---:|---:|---:|---:|'];
  for (const { repos, results } of homes) {
    const [mine = [], other = []] = results;
    for (const route of mine) {
      const base = other.find((r) => r.route === route.route);
      const ratio = base === undefined ? NaN : route.rps / base.rps;
      lines.push(
        `| ${route.route} | ${repos} | ${route.rps.toFixed(0)} | ${route.p99Ms.toFixed(1)} | ${base?.rps.toFixed(0)} | ${base?.p99Ms.toFixed(1)} | ${ratio.toFixed(2)}× |`,
      );
    }
  }
  return lines.join('\n');
}

async function measureHome(main: string, home: ListingHome, load: { connections: number; seconds: number }): Promise<HomeResult> {
  const { child, base } = await startServer(main, home.home);
  const memory = (field: 'VmRSS' | 'VmHWM'): number =>
    Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
  try {
    // The index build starts with the server; the first listing waits for it to finish.
    const started = performance.now();
    const first = fetch(`${base}${API}/repos?show=all`)
      .then((r) => r.arrayBuffer())
      .then(() => performance.now() - started);
    const duringBuild = await trivialLatency(base, first);
    const paths = routePaths(home);
    const rssByPhase: Record<string, number> = { built: memory('VmRSS') };
    const routes: RouteResult[] = [];
    for (const [route, url] of paths) {
      await wrk(`${base}${url}`, { connections: load.connections, seconds: 1 });
      routes.push({ route, ...(await wrk(`${base}${url}`, load)) });
      rssByPhase[route] = memory('VmRSS');
    }
    const mixed = paths.filter(([route]) => route === 'repos' || route === 'search');
    const heavy = Promise.all(mixed.map(([, url]) => wrk(`${base}${url}`, { connections: 8, seconds: load.seconds })));
    const trivial = await trivialLatency(base, heavy);
    rssByPhase['mixed'] = memory('VmRSS');
    return {
      repos: home.repos,
      firstListingMs: await first,
      trivialDuringBuildMaxMs: duringBuild.max,
      routes,
      rssMb: memory('VmHWM'),
      rssByPhase,
      trivialP99Ms: trivial.p99,
    };
  } finally {
    await stopServer(child);
  }
}

function report(small: HomeResult, large: HomeResult): string {
  const lines = [
    `| route | ${small.repos} repos req/s | mean ms | ${large.repos} repos req/s | mean ms | p99 ms | ratio (mean) |`,
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const route of large.routes) {
    const base = small.routes.find((r) => r.route === route.route);
    const ratio = base === undefined ? NaN : route.meanMs / base.meanMs;
    lines.push(
      `| ${route.route} | ${base?.rps.toFixed(0)} | ${base?.meanMs.toFixed(2)} | ${route.rps.toFixed(0)} | ${route.meanMs.toFixed(2)} | ${route.p99Ms.toFixed(1)} | ${ratio.toFixed(2)}× |`,
    );
  }
  // radicle-httpd 0.27's sorts, computed in-process: each against sort=rid on the same home.
  for (const result of [small, large]) {
    const rid = result.routes.find((r) => r.route === 'repos');
    const sorts = result.routes.filter((r) => r.route.startsWith('repos sort='));
    const ratios = sorts.map((r) => `${r.route.slice('repos '.length)} ${(r.rps / (rid?.rps ?? NaN)).toFixed(2)}× the req/s of sort=rid`);
    lines.push(`- ${result.repos} repos: ${ratios.join(', ')}`);
  }
  for (const result of [small, large]) {
    const phases = Object.entries(result.rssByPhase)
      .map(([phase, mb]) => `${phase} ${mb.toFixed(0)}`)
      .join(', ');
    lines.push(
      `- ${result.repos} repos: first listing ${result.firstListingMs.toFixed(0)} ms (trivial request max ${result.trivialDuringBuildMaxMs.toFixed(1)} ms meanwhile), peak RSS ${result.rssMb.toFixed(0)} MB (RSS MB after: ${phases}), trivial p99 under listing load ${result.trivialP99Ms.toFixed(1)} ms`,
    );
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const server = path.resolve(ROOT, flag('server', 'apps/httpd/dist/main.js'));
  const load = { connections: Number(flag('concurrency', '16')), seconds: Number(flag('duration', '5')) };
  const small = await ensureHome(10);
  const large = await ensureHome(Number(flag('repos', '10000')));
  await Promise.all([ensurePins(small), ensurePins(large)]);
  const compare = flag('compare-with', '');
  if (compare !== '') {
    const mains = [server, path.resolve(compare, 'apps/httpd/dist/main.js')];
    const homes = [];
    for (const home of [small, large]) homes.push({ repos: home.repos, results: await compareHome(mains, home, load) });
    console.log(compareReport(homes));
    await writeFile(path.join(ROOT, 'bench-results', `listing-compare-${large.repos}.json`), JSON.stringify({ mains, load, homes }, null, 2));
    return;
  }
  const smallResult = await measureHome(server, small, load);
  const largeResult = await measureHome(server, large, load);
  const text = report(smallResult, largeResult);
  console.log(text);
  const label = flag('label', 'run');
  await writeFile(
    path.join(ROOT, 'bench-results', `listing-${label}-${large.repos}.json`),
    JSON.stringify({ server, load, smallResult, largeResult }, null, 2),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
