/**
 * forge-httpd as the benchmark runs it: the built CLI in its own process on a free port, so
 * its RSS and CPU are its own and a restart gives a truly cold server.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, sleep, spawnServer, stopChild, waitForHttp, waitForPort } from './processes.js';

/** A running forge-httpd. */
export interface ForgeServer {
  readonly baseUrl: string;
  readonly pid: number;
  /** With `waitForStartup`: ms from process start until its start-up work (index build, warm-up) was done. */
  readonly startupMs: number | null;
  stop(): Promise<void>;
}

const READY = /ready: \d+ repositories indexed, \d+ warm-up requests, (\d+) ms after start/;

/** Repository root (this file is tools/dist/bench/forge-server.js after the build). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** A standalone bench script's home cache: its `--cache`, else `$FORGE_BENCH_CACHE`, else bench-results/cache. */
export function benchCacheRoot(flag: string | undefined): string {
  return path.resolve(flag ?? process.env['FORGE_BENCH_CACHE'] ?? path.join(REPO_ROOT, 'bench-results', 'cache'));
}

/** The builds a bench script measures side by side: this checkout's, and the one `--compare-with` names. */
export function buildsToMeasure(compareWith: string | undefined): Array<{ readonly label: string; readonly root: string }> {
  const builds = [{ label: 'this build', root: REPO_ROOT }];
  if (compareWith !== undefined) builds.push({ label: 'compared', root: path.resolve(compareWith) });
  return builds;
}

/**
 * Starts `node apps/httpd/dist/main.js --home <home>` and waits until it answers — and, with
 * `waitForStartup`, until it logs that its storage index is built (startup work done).
 */
export async function startForge(
  home: string,
  options: {
    waitForStartup?: boolean;
    /** Wait only until the port accepts connections, so that the caller's first request is the server's first. */
    portOnly?: boolean;
    root?: string;
    args?: readonly string[];
    env?: NodeJS.ProcessEnv;
  } = {},
): Promise<ForgeServer> {
  const port = await freePort();
  // Each server gets an empty cache directory of its own, removed when it stops: a restart is
  // cold (no persisted COB evaluations), and nothing lands in the user's cache home. Callers
  // keep one across restarts with --cache-dir.
  const cacheDir = await mkdtemp(path.join(tmpdir(), 'forge-bench-cache-'));
  const main = path.join(options.root ?? REPO_ROOT, 'apps', 'httpd', 'dist', 'main.js');
  const server = spawnServer(process.execPath, [main, '--home', home, '--listen', `127.0.0.1:${port}`, ...(options.args ?? [])], {
    env: { ...process.env, FORGE_CACHE_DIR: cacheDir, ...options.env, RAD_SOCKET: path.join(home, 'node', 'no-such.sock') },
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  let startupMs: number | null = null;
  try {
    if (options.portOnly === true) await waitForPort(port, 30_000, server.child);
    else await waitForHttp(`${baseUrl}/api/v1`, 30_000, server.child);
    if (options.waitForStartup === true) startupMs = await waitForLog(() => server.log(), READY, 300_000);
  } catch (error) {
    await stopChild(server.child);
    await rm(cacheDir, { recursive: true, force: true });
    throw new Error(`forge-httpd did not start: ${(error as Error).message}\n${server.log()}`);
  }
  const stop = async (): Promise<void> => {
    await stopChild(server.child);
    await rm(cacheDir, { recursive: true, force: true });
  };
  return { baseUrl, pid: server.child.pid ?? 0, startupMs, stop };
}

async function waitForLog(log: () => string, pattern: RegExp, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (let match = pattern.exec(log()); ; match = pattern.exec(log())) {
    if (match !== null) return Number(match[1]);
    if (Date.now() > deadline) throw new Error(`no "${pattern.source}" in the log within ${timeoutMs} ms`);
    await sleep(20);
  }
}
