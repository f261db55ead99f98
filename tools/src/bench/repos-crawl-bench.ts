/**
 * Memory per repository served (issue 14): a crawler visits the info, issue and patch pages of
 * every repository of the full bench home once (10,000 repositories), and the server's memory is
 * read before and after: resident size, and the live heap as of the last full collection
 * (`forge_heap_live_bytes` from the metrics listener). Memory a server keeps per repository it
 * has served shows as growth here. Then the big tracker's first pages are timed, to show whether
 * its evaluated issues and patches survived the crawl. With `--compare-with DIR` the built
 * server of another checkout crawls the same URLs in the same run.
 *
 * usage (from the repository root, after `npm run build`):
 *   node tools/dist/bench/repos-crawl-bench.js [--scale full] [--repos N] [--concurrency 4]
 *     [--settle-ms 10000] [--compare-with DIR] [--cache DIR]
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureLargeHome } from './bench-homes.js';
import { benchCacheRoot, buildsToMeasure, startForge } from './forge-server.js';
import { SCALES } from './options.js';
import { freePort, readRss, sampleRss, sleep } from './processes.js';

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: 'full' },
    repos: { type: 'string' },
    concurrency: { type: 'string', default: '4' },
    'settle-ms': { type: 'string', default: '10000' },
    'compare-with': { type: 'string' },
    cache: { type: 'string' },
  },
});

const MIB = 1024 * 1024;
const scale = SCALES[values.scale];
if (scale === undefined) throw new Error(`unknown --scale ${values.scale}`);
const builds = buildsToMeasure(values['compare-with']);

const large = await ensureLargeHome(benchCacheRoot(values.cache), scale);
const storageDirs = (await readdir(path.join(large.home, 'storage'))).filter((name) => name.startsWith('z')).sort();
const rids = storageDirs.slice(0, values.repos === undefined ? undefined : Number(values.repos)).map((name) => `rad:${name}`);
const PAGES = ['', '/issues', '/patches'];
const TRACKER_PAGES: Array<[string, string]> = [
  ['repo', ''],
  ['issues', '/issues'],
  ['patches', '/patches'],
  ['closed p5', '/issues?status=closed&page=5'],
];

/** Memory of a server at one moment. */
interface Memory {
  readonly rssMiB: number;
  /** Live heap after the last full collection, MiB. */
  readonly liveMiB: number;
}

/** One build's crawl. */
interface Row {
  readonly build: string;
  readonly requests: number;
  readonly seconds: number;
  readonly statuses: string;
  readonly before: Memory;
  readonly after: Memory;
  readonly rssPeakMiB: number;
  readonly trackerMs: readonly number[];
}

const rows: Row[] = [];
for (const build of builds) rows.push(await crawl(build));

console.log(
  `\nrepositories crawled, scale ${scale.name}: ${rids.length} repositories × ${PAGES.length} pages (info, issues, patches), c=${values.concurrency}\n`,
);
console.log(
  `| server | requests | s | statuses | RSS before MiB | RSS after MiB | RSS peak MiB | live heap before MiB | live heap after MiB | tracker after: ${TRACKER_PAGES.map(([name]) => name).join(' / ')} ms |`,
);
console.log('|---|---:|---:|---|---:|---:|---:|---:|---:|---|');
for (const row of rows) {
  console.log(
    `| ${row.build} | ${row.requests} | ${row.seconds.toFixed(1)} | ${row.statuses} | ${row.before.rssMiB} | ${row.after.rssMiB} | ${row.rssPeakMiB} | ${row.before.liveMiB} | ${row.after.liveMiB} | ${row.trackerMs.map((ms) => ms.toFixed(1)).join(' / ')} |`,
  );
}

// The live heap is read after the collection that followed the crawl; a server that keeps
// nothing per repository served grows by the noise of one collection's timing.
console.log('');
for (const row of rows) {
  const growth = row.after.liveMiB - row.before.liveMiB;
  const perThousand = (growth / rids.length) * 1000;
  console.log(
    `- ${row.build}: live heap ${growth >= 0 ? '+' : ''}${growth} MiB after ${rids.length} repositories served (${perThousand.toFixed(1)} MiB per 1,000), RSS ${row.after.rssMiB - row.before.rssMiB >= 0 ? '+' : ''}${row.after.rssMiB - row.before.rssMiB} MiB`,
  );
}

async function crawl(build: { label: string; root: string }): Promise<Row> {
  const metricsPort = await freePort();
  const server = await startForge(large.home, { waitForStartup: true, root: build.root, args: ['--metrics-listen', `127.0.0.1:${metricsPort}`] });
  const memory = async (): Promise<Memory> => {
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const live = Number(/^forge_heap_live_bytes (\S+)$/m.exec(metrics)?.[1] ?? Number.NaN);
    return { rssMiB: Math.round(((await readRss(server.pid)) ?? 0) / MIB), liveMiB: Math.round(live / MIB) };
  };
  try {
    // The background work after `ready` (the COB pass over the tracker) is done by then.
    await sleep(Number(values['settle-ms']));
    const before = await memory();
    const sampler = sampleRss(server.pid, 250);
    const statuses = new Map<number, number>();
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: Number(values.concurrency) }, async () => {
        for (let at = next++; at < rids.length; at = next++) {
          for (const page of PAGES) {
            const response = await fetch(`${server.baseUrl}/api/v1/repos/${rids[at]}${page}`);
            await response.arrayBuffer();
            statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          }
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const peak = Math.max(...(await sampler.stop()).map(([, rss]) => rss)) / MIB;
    // The live heap is read after a full collection; the crawl's garbage may need a moment.
    await sleep(5000);
    const after = await memory();
    const trackerMs: number[] = [];
    for (const [, suffix] of TRACKER_PAGES) {
      const at = performance.now();
      await (await fetch(`${server.baseUrl}/api/v1/repos/${large.cobRid}${suffix}`)).arrayBuffer();
      trackerMs.push(performance.now() - at);
    }
    return {
      build: build.label,
      requests: rids.length * PAGES.length,
      seconds,
      statuses: [...statuses].map(([status, count]) => `${status}×${count}`).join(' '),
      before,
      after,
      rssPeakMiB: Math.max(Math.round(peak), after.rssMiB),
      trackerMs,
    };
  } finally {
    await server.stop();
  }
}
