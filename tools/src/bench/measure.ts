/**
 * The measuring phases of one benchmark run. Every phase returns plain figures; judging them
 * against the targets is report.ts's job.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type CapturedResponse, captureResponses, rawGet, startCeiling } from './ceiling-server.js';
import type { CgitServer } from './cgit-server.js';
import { startForge, type ForgeServer } from './forge-server.js';
import { median } from './git-baseline.js';
import { sampleRss, sleep } from './processes.js';
import { runWrk, type LoadResult } from './wrk.js';
import type { RouteClass } from './workload.js';

/** Warm figures of one route class at one concurrency, with its baselines. */
export interface WarmRow {
  readonly route: string;
  readonly group: string;
  readonly concurrency: number;
  readonly forge: LoadResult;
  readonly ceiling: LoadResult;
  readonly cgit: LoadResult | null;
}

/**
 * First-request time after a fresh start (median over restarts), in ms, taken once the server
 * logged that its startup work (the storage index build, then the warm-up) is done; how long
 * that took is reported beside it.
 */
export interface ColdRow {
  readonly route: string;
  /** First start: an empty cache directory (nothing kept from an earlier run). */
  readonly forgeMs: number;
  /**
   * A restart: the same first request on a server started over the cache directory of one that
   * answered another page of the route (its next sample) and was stopped, as an operator's
   * restart keeps it (median).
   */
  readonly restartMs: number;
  readonly startupMs: number;
  /** The `--compare-with` checkout's server on the same paths, restarted alternately with this one. */
  readonly otherMs: number | null;
  /**
   * The same answers' bytes from the bare ceiling server, each on a fresh connection after an
   * idle moment (median): what the connection, the HTTP exchange and the client cost when a
   * server does no work at all.
   */
  readonly bareHttpMs: number;
}

/** Idle time before each fresh-connection request to the ceiling (the cold server was idle too, waiting for its first request). */
const BARE_HTTP_IDLE_MS = 100;

/** The same route class on the large and the small home. */
export interface ScaleRow {
  readonly route: string;
  readonly large: LoadResult;
  readonly small: LoadResult;
}

/** Load settings shared by the phases. */
export interface LoadSettings {
  readonly seconds: number;
  readonly concurrencies: readonly number[];
  readonly scratchDir: string;
}

/**
 * Cold reads: for each route class a fresh server answers its first request. With
 * `compareRoot`, a fresh server of that checkout answers the same path after (even runs) or
 * before (odd runs) this one, so neither always runs second on a warmer page cache.
 */
export async function measureCold(
  home: string,
  routes: readonly RouteClass[],
  settings: { readonly runs: number; readonly compareRoot: string | null; readonly scratchDir: string },
): Promise<ColdRow[]> {
  const { runs, compareRoot } = settings;
  const rows: Array<Omit<ColdRow, 'bareHttpMs'>> = [];
  const answers = new Map<string, CapturedResponse>();
  for (const route of routes) {
    const times: number[] = [];
    const restartTimes: number[] = [];
    const otherTimes: number[] = [];
    const ready: number[] = [];
    for (let i = 0; i < runs; i++) {
      const path = pathOfRun(route, i);
      const mine = async (): Promise<void> => {
        const { ms, startupMs, answer } = await timeFirstRequest(home, path);
        times.push(ms);
        ready.push(startupMs);
        answers.set(path, answer);
        restartTimes.push(await timeFirstRequestAfterRestart(home, pathOfRun(route, i + 1), path, settings.scratchDir));
      };
      const other = async (): Promise<void> => {
        if (compareRoot !== null) otherTimes.push((await timeFirstRequest(home, path, { root: compareRoot })).ms);
      };
      for (const run of i % 2 === 0 ? [mine, other] : [other, mine]) await run();
    }
    rows.push({
      route: route.name,
      forgeMs: median(times),
      restartMs: median(restartTimes),
      startupMs: median(ready),
      otherMs: compareRoot === null ? null : median(otherTimes),
    });
  }
  const bare = await timeBareHttp(answers, routes, runs, settings.scratchDir);
  return rows.map((row) => ({ ...row, bareHttpMs: bare.get(row.route) ?? NaN }));
}

/** The path the cold phase asks in its `run`-th restart of a route class (its samples in turn). */
function pathOfRun(route: RouteClass, run: number): string {
  return route.paths[run % route.paths.length] ?? '';
}

/**
 * Starts a server (of `root`, default this checkout; over `cacheDir`, default an empty one),
 * times its first request of `path`, stops it.
 */
async function timeFirstRequest(
  home: string,
  path: string,
  options: { root?: string; cacheDir?: string } = {},
): Promise<{ ms: number; startupMs: number; answer: CapturedResponse }> {
  const args = options.cacheDir === undefined ? [] : ['--cache-dir', options.cacheDir];
  const server = await startForge(home, { waitForStartup: true, root: options.root, args });
  try {
    // A fresh connection and no Accept-Encoding, as the first request of a new client.
    const start = performance.now();
    const answer = await rawGet(server.baseUrl + path);
    return { ms: performance.now() - start, startupMs: server.startupMs ?? NaN, answer };
  } finally {
    await server.stop();
  }
}

/**
 * How long a server that served before waits for its work in the background (a last-commit
 * index read after a first tree or blob page, a commit-graph written) before it is stopped.
 */
const BEFORE_RESTART_MS = 4000;

/**
 * The first request of `path` after a restart: a server over a new cache directory is browsed
 * as a visitor of that repository does (its page, its root tree at the head) and answers
 * `before` (another page of the same kind), works on in the background for a moment and is
 * stopped (SIGTERM: it writes what it keeps); a second one over the same directory is timed.
 */
async function timeFirstRequestAfterRestart(home: string, before: string, path: string, scratchDir: string): Promise<number> {
  const cacheDir = await mkdtemp(join(scratchDir, 'restart-cache-'));
  try {
    const first = await startForge(home, { waitForStartup: true, args: ['--cache-dir', cacheDir] });
    try {
      await browseInto(first.baseUrl, path);
      await rawGet(first.baseUrl + before);
      await sleep(BEFORE_RESTART_MS);
    } finally {
      await first.stop();
    }
    return (await timeFirstRequest(home, path, { cacheDir })).ms;
  } finally {
    await rm(cacheDir, { recursive: true, force: true });
  }
}

/** What a visitor opens first of the repository `path` is in (none for other pages): its page, then its root tree at the head. */
async function browseInto(baseUrl: string, path: string): Promise<void> {
  const repository = /^\/api\/v1\/repos\/(rad:[^/?]+)/.exec(path)?.[1];
  if (repository === undefined) return;
  const info = await rawGet(`${baseUrl}/api/v1/repos/${repository}`);
  if (info.status !== 200) return;
  const payloads = (JSON.parse(info.body.toString('utf8')) as { payloads?: Record<string, { meta?: { head?: unknown } }> }).payloads ?? {};
  const head = Object.values(payloads).find((payload) => typeof payload.meta?.head === 'string')?.meta?.head;
  if (typeof head === 'string') await rawGet(`${baseUrl}/api/v1/repos/${repository}/tree/${head}/`);
}

/** Per route class, the median time of the ceiling sending the cold answers on fresh connections. */
async function timeBareHttp(
  answers: ReadonlyMap<string, CapturedResponse>,
  routes: readonly RouteClass[],
  runs: number,
  scratchDir: string,
): Promise<Map<string, number>> {
  const ceiling = await startCeiling(answers, scratchDir);
  const medians = new Map<string, number>();
  try {
    for (const route of routes) {
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        await sleep(BARE_HTTP_IDLE_MS);
        const start = performance.now();
        await rawGet(ceiling.baseUrl + pathOfRun(route, i));
        times.push(performance.now() - start);
      }
      medians.set(route.name, median(times));
    }
  } finally {
    await ceiling.stop();
  }
  return medians;
}

/**
 * Warm load: every path is requested once (warming caches and capturing the bytes for the
 * ceiling), then wrk drives forge-httpd, the ceiling and (where it has the page) cgit in turn.
 */
export async function measureWarm(
  server: ForgeServer,
  routes: readonly RouteClass[],
  settings: LoadSettings & { readonly cgit: CgitServer | null },
): Promise<WarmRow[]> {
  const captured = await captureResponses(
    server.baseUrl,
    routes.flatMap((r) => r.paths),
  );
  const ceiling = await startCeiling(captured, settings.scratchDir);
  const rows: WarmRow[] = [];
  try {
    for (const route of routes) {
      for (const concurrency of settings.concurrencies) {
        const load = (baseUrl: string, paths: readonly string[]): Promise<LoadResult> =>
          runWrk({ baseUrl, paths, concurrency, seconds: settings.seconds, scratchDir: settings.scratchDir });
        const forge = await load(server.baseUrl, route.paths);
        const ceilingResult = await load(ceiling.baseUrl, route.paths);
        const cgit = settings.cgit !== null && route.cgit.length > 0 ? await load(settings.cgit.baseUrl, route.cgit) : null;
        rows.push({ route: route.name, group: route.group, concurrency, forge, ceiling: ceilingResult, cgit });
        console.log(
          `[bench] warm ${route.name} c=${concurrency}: ${forge.rps.toFixed(0)} req/s (ceiling ${ceilingResult.rps.toFixed(0)}${cgit ? `, cgit ${cgit.rps.toFixed(0)}` : ''})`,
        );
      }
    }
  } finally {
    await ceiling.stop();
  }
  return rows;
}

/** The same route classes on two homes (large vs small), warm, at one concurrency. */
export async function measureScale(
  large: ForgeServer,
  small: ForgeServer,
  pairs: ReadonlyArray<{ name: string; large: readonly string[]; small: readonly string[] }>,
  settings: LoadSettings,
): Promise<ScaleRow[]> {
  const concurrency = settings.concurrencies.includes(16) ? 16 : (settings.concurrencies[0] ?? 1);
  const rows: ScaleRow[] = [];
  for (const pair of pairs) {
    const load = async (server: ForgeServer, paths: readonly string[]): Promise<LoadResult> => {
      await captureResponses(server.baseUrl, paths); // warm
      return runWrk({ baseUrl: server.baseUrl, paths, concurrency, seconds: settings.seconds, scratchDir: settings.scratchDir });
    };
    const largeResult = await load(large, pair.large);
    const smallResult = await load(small, pair.small);
    rows.push({ route: pair.name, large: largeResult, small: smallResult });
    console.log(`[bench] scale ${pair.name}: large ${largeResult.rps.toFixed(0)} req/s, small ${smallResult.rps.toFixed(0)} req/s`);
  }
  return rows;
}

/** A trivial request's latency while wrk saturates the heavy routes in parallel. */
export async function measureSaturation(
  server: ForgeServer,
  trivialPath: string,
  heavyPaths: readonly string[],
  settings: LoadSettings,
): Promise<{ trivial: LoadResult; heavy: LoadResult }> {
  const heavy = runWrk({ baseUrl: server.baseUrl, paths: heavyPaths, concurrency: 64, seconds: settings.seconds + 1, scratchDir: settings.scratchDir });
  await new Promise((resolve) => setTimeout(resolve, 500));
  const trivial = await runWrk({ baseUrl: server.baseUrl, paths: [trivialPath], concurrency: 1, seconds: settings.seconds, scratchDir: settings.scratchDir });
  return { trivial, heavy: await heavy };
}

/** Runs `work` while sampling the server's RSS every 250 ms. */
export async function withRss<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; rss: Array<[number, number]> }> {
  const sampler = sampleRss(pid, 250);
  try {
    const result = await work();
    return { result, rss: await sampler.stop() };
  } catch (error) {
    await sampler.stop();
    throw error;
  }
}

/** RSS over a longer mixed load: wrk rotates through every path for `seconds` at c=16. */
export async function measureSoak(
  server: ForgeServer,
  paths: readonly string[],
  settings: LoadSettings & { readonly soakSeconds: number },
): Promise<{ load: LoadResult; rss: Array<[number, number]> }> {
  console.log(`[bench] soak: ${settings.soakSeconds} s of mixed load over ${paths.length} paths`);
  const { result, rss } = await withRss(server.pid, () =>
    runWrk({ baseUrl: server.baseUrl, paths, concurrency: 16, seconds: settings.soakSeconds, scratchDir: settings.scratchDir }),
  );
  return { load: result, rss };
}
