/**
 * Search benchmark: `/repos/search` on the 10,000-repository listing home (the one
 * listing-bench.ts builds and caches under bench-results/cache/listing-<n>; built here the same
 * way when missing), for name, description and one-typo queries, each kind as one repeated query
 * (its ranking reused) and as a rotation over 1,000 distinct queries (every ranking computed:
 * far more than the rankings kept). With `--compare-with`, the other checkout's server is
 * measured on the same home in the same run, query kind by query kind.
 *
 * usage (from the repository root, after the build): node tools/dist/bench/search-bench.js
 *   [--repos 10000] [--duration 10] [--concurrency 16] [--compare-with /path/to/checkout]
 * Results: a Markdown table on stdout.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { benchCacheRoot, buildsToMeasure, type ForgeServer, startForge } from './forge-server.js';
import { ensureListingHome } from './listing-home.js';
import { type LoadResult, runWrk } from './wrk.js';

/** Distinct queries of a rotation. */
const ROTATION = 1000;

function flag(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

/** The listing home with `count` repositories (`repo-<i>`, described `Benchmark repository <i>`). */
async function ensureHome(count: number): Promise<string> {
  return (await ensureListingHome(benchCacheRoot(flag('cache')), count, (line) => console.log(`[search-bench] ${line}`))).home;
}

/** Each query kind: one repeated query, and a rotation of distinct ones. */
function queryKinds(count: number): Array<{ kind: string; paths: string[] }> {
  const at = (i: number): number => (i * 7919) % count;
  const search = (q: string): string => `/api/v1/repos/search?q=${encodeURIComponent(q)}`;
  const rotation = (make: (i: number) => string): string[] => Array.from({ length: ROTATION }, (_, i) => search(make(at(i))));
  return [
    { kind: 'name, one query', paths: [search(`repo-0${at(1)}`)] },
    { kind: 'name, 1,000 queries', paths: rotation((i) => `repo-${String(i).padStart(5, '0')}`) },
    { kind: 'description, one query', paths: [search(`repository ${at(1)}`)] },
    { kind: 'description, 1,000 queries', paths: rotation((i) => `repository ${i}`) },
    { kind: 'typo, one query', paths: [search(`benchmrak ${at(1)}`)] },
    { kind: 'typo, 1,000 queries', paths: rotation((i) => `benchmrak ${i}`) },
  ];
}

async function measure(server: ForgeServer, paths: readonly string[], scratchDir: string): Promise<LoadResult> {
  const load = { concurrency: Number(flag('concurrency') ?? '16'), seconds: Number(flag('duration') ?? '10') };
  // A short warm-up run first (rankings, JIT), then the measured one.
  await runWrk({ baseUrl: server.baseUrl, paths, concurrency: load.concurrency, seconds: 2, scratchDir });
  return runWrk({ baseUrl: server.baseUrl, paths, ...load, scratchDir });
}

async function main(): Promise<void> {
  const count = Number(flag('repos') ?? '10000');
  const home = await ensureHome(count);
  const builds = buildsToMeasure(flag('compare-with'));
  const scratchDir = await mkdtemp(path.join(tmpdir(), 'search-bench-'));
  const servers: ForgeServer[] = [];
  try {
    for (const build of builds) servers.push(await startForge(home, { root: build.root, waitForStartup: true }));
    const rows: string[] = [];
    for (const { kind, paths } of queryKinds(count)) {
      const cells: string[] = [];
      for (const server of servers) {
        const result = await measure(server, paths, scratchDir);
        cells.push(`${result.rps.toFixed(0)} | ${result.p50.toFixed(2)} | ${result.p99.toFixed(2)} | ${result.errors}`);
      }
      rows.push(`| ${kind} | ${cells.join(' | ')} |`);
    }
    const header = builds.map((build) => `${build.label} req/s | p50 ms | p99 ms | errors`).join(' | ');
    console.log([`| query (${count} repositories) | ${header} |`, `|---|${builds.map(() => '---:|---:|---:|---:').join('|')}|`, ...rows].join('\n'));
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    await rm(scratchDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
