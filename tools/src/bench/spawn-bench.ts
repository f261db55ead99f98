/**
 * Spawn benchmark (issue 14, cold reads): what starting one git process costs the server,
 * directly and through the spawn helper, side by side in one run, at several resident sizes.
 * Node 20 forks the whole process for every spawn; the fork blocks the event loop for a time
 * that grows with resident memory, which the helper (a small separate process) avoids.
 *
 * For each ballast size (touched memory added to this process) and each mode, `--spawns`
 * `git rev-parse HEAD` processes are started at each concurrency; printed per row: the time
 * the spawn call itself blocks the event loop, spawn → exit latency, processes per second and
 * the event loop's delay meanwhile (perf_hooks, 1 ms resolution).
 *
 * usage (from the repository root, after `npm run build`):
 *   node tools/dist/bench/spawn-bench.js [--spawns 200] [--ballast 0,128,256] [--concurrency 1,4]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { GitProcesses } from '@forge-httpd/storage';

// The benchmark's own processes: its spawns go through their helper while one is in use.
const processes = new GitProcesses();
import { buildNodeHome } from '@forge-httpd/builder';
import { readRss } from './processes.js';

const { values } = parseArgs({
  options: {
    spawns: { type: 'string', default: '200' },
    ballast: { type: 'string', default: '0,128,256' },
    concurrency: { type: 'string', default: '1,4' },
  },
});
const spawns = Number(values.spawns);
const ballasts = values.ballast.split(',').map(Number);
const concurrencies = values.concurrency.split(',').map(Number);

interface Row {
  readonly blockMs: number[];
  readonly latencyMs: number[];
  readonly perSecond: number;
  readonly loopP99Ms: number;
  readonly loopMaxMs: number;
}

/** One git process: how long `spawnGit` blocked, and spawn → close. */
function oneSpawn(gitDir: string): Promise<{ blockMs: number; latencyMs: number }> {
  const start = performance.now();
  const child = processes.spawn(gitDir, ['rev-parse', 'HEAD']);
  const blockMs = performance.now() - start;
  child.stdout.resume();
  child.stderr.resume();
  child.stdin.end();
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve({ blockMs, latencyMs: performance.now() - start }) : reject(new Error(`git exited ${code}`))));
  });
}

async function measure(gitDir: string, concurrency: number): Promise<Row> {
  const blockMs: number[] = [];
  const latencyMs: number[] = [];
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const start = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < spawns) {
        next += 1;
        const figures = await oneSpawn(gitDir);
        blockMs.push(figures.blockMs);
        latencyMs.push(figures.latencyMs);
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  delay.disable();
  return { blockMs, latencyMs, perSecond: spawns / seconds, loopP99Ms: delay.percentile(99) / 1e6, loopMaxMs: delay.max / 1e6 };
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

const fixed = (value: number): string => (value < 10 ? value.toFixed(2) : value.toFixed(1));

const scratch = await mkdtemp(path.join(tmpdir(), 'forge-spawn-bench-'));
try {
  const built = await buildNodeHome({ home: path.join(scratch, 'home'), seed: '5eed'.padEnd(64, '0'), alias: 'seed', repos: [{ name: 'bench' }] });
  const gitDir = built.repos[0]?.gitDir;
  if (gitDir === undefined) throw new Error('the bench home has no repository');
  const ballast: Buffer[] = [];
  console.log(`# Spawn cost, direct vs through the spawn helper (${new Date().toISOString()}, node ${process.version})`);
  console.log(`${spawns} \`git rev-parse HEAD\` per row; ballast = touched memory added to this process\n`);
  console.log(
    '| ballast MB | RSS MB | conc | mode | spawn() blocks median / p99 ms | spawn → exit median / p99 ms | processes/s | event loop delay p99 / max ms |',
  );
  console.log('|---:|---:|---:|---|---:|---:|---:|---:|');
  for (const megabytes of ballasts) {
    while (ballast.length < megabytes) ballast.push(Buffer.alloc(1024 * 1024, 1));
    const rss = Math.round(((await readRss(process.pid)) ?? 0) / 1024 / 1024);
    for (const concurrency of concurrencies) {
      for (const mode of ['direct', 'helper'] as const) {
        const release = mode === 'helper' ? await processes.useSpawnHelper((line) => console.error(line)) : () => undefined;
        try {
          await measure(gitDir, concurrency); // warms up both paths (module loads, first connections)
          const row = await measure(gitDir, concurrency);
          console.log(
            `| ${megabytes} | ${rss} | ${concurrency} | ${mode} | ${fixed(quantile(row.blockMs, 0.5))} / ${fixed(quantile(row.blockMs, 0.99))} | ` +
              `${fixed(quantile(row.latencyMs, 0.5))} / ${fixed(quantile(row.latencyMs, 0.99))} | ${Math.round(row.perSecond)} | ${fixed(row.loopP99Ms)} / ${fixed(row.loopMaxMs)} |`,
          );
        } finally {
          release();
        }
      }
    }
  }
} finally {
  await rm(scratch, { recursive: true, force: true });
}
