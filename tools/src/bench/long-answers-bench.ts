/**
 * Long answers benchmark (issue 14, memory): pages whose size the client chooses — a range
 * whose base is not in the history (`diff/{newer}/{oid}` lists the whole history of oid) and a
 * `commits?since=0&parent=…` list without `perPage` — requested one after another (or a few at
 * once), each a distinct URL so nothing is answered from a cache. Printed per server: time per
 * page, decoded bytes per page and the server's resident size at start and at its peak (VmRSS
 * sampled every 50 ms). With `--compare-with DIR` the built server of another checkout is
 * measured on the same URLs in the same run, each row on both servers in turn.
 *
 * usage (from the repository root, after `npm run build`):
 *   node tools/dist/bench/long-answers-bench.js [--scale full] [--pages 40] [--concurrency 1,4]
 *     [--encoding br] [--compare-with DIR] [--cache DIR]
 */
import { parseArgs } from 'node:util';
import { ensureLargeHome } from './bench-homes.js';
import { benchCacheRoot, buildsToMeasure, startForge } from './forge-server.js';
import { SCALES } from './options.js';
import { readRss, runChecked, sampleRss } from './processes.js';

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: 'full' },
    pages: { type: 'string', default: '40' },
    concurrency: { type: 'string', default: '1,4' },
    encoding: { type: 'string', default: 'br' },
    'compare-with': { type: 'string' },
    cache: { type: 'string' },
  },
});

const MIB = 1024 * 1024;
const scale = SCALES[values.scale];
if (scale === undefined) throw new Error(`unknown --scale ${values.scale}`);
const pages = Number(values.pages);
const concurrencies = values.concurrency.split(',').map(Number);
const builds = buildsToMeasure(values['compare-with']);

/** One measured row: a page kind, a concurrency and a server. */
interface Row {
  readonly kind: string;
  readonly concurrency: number;
  readonly build: string;
  readonly msPerPage: number;
  readonly mbPerPage: number;
  readonly rssStartMiB: number;
  readonly rssPeakMiB: number;
  readonly statuses: string;
}

const large = await ensureLargeHome(benchCacheRoot(values.cache), scale);
if (large.bigRid === null || large.bigGitDir === null) throw new Error('the bench home has no big repository');
const newest = (await runChecked('git', ['--git-dir', large.bigGitDir, 'rev-list', `--max-count=${pages * 4 + 1}`, 'HEAD']))
  .toString('latin1')
  .split('\n')
  .filter((line) => /^[0-9a-f]{40}$/.test(line));
const repo = `/api/v1/repos/${large.bigRid}`;
// A newer commit as base is never in oid's history: the range lists all of it.
const kinds: Record<string, (at: number) => string> = {
  'whole-history range': (at) => `${repo}/diff/${newest[at]}/${newest[at + 1]}`,
  'since=0 list': (at) => `${repo}/commits?since=0&parent=${newest[at]}`,
};

const rows: Row[] = [];
let offset = 0;
for (const [kind, url] of Object.entries(kinds)) {
  for (const concurrency of concurrencies) {
    for (const build of builds) rows.push(await measure({ kind, url, concurrency, build, offset }));
    offset += pages;
  }
}

console.log(`\nlong answers, scale ${scale.name}, ${pages} distinct pages per row, accept-encoding ${values.encoding}\n`);
console.log('| page | conc | server | ms/page | MB/page (decoded) | RSS at start MiB | RSS peak MiB | statuses |');
console.log('|---|---:|---|---:|---:|---:|---:|---|');
for (const row of rows) {
  console.log(
    `| ${row.kind} | ${row.concurrency} | ${row.build} | ${row.msPerPage.toFixed(0)} | ${row.mbPerPage.toFixed(1)} | ${row.rssStartMiB} | ${row.rssPeakMiB} | ${row.statuses} |`,
  );
}

async function measure(input: {
  kind: string;
  url: (at: number) => string;
  concurrency: number;
  build: { label: string; root: string };
  offset: number;
}): Promise<Row> {
  const server = await startForge(large.home, { waitForStartup: true, root: input.build.root });
  try {
    const rssStart = (await readRss(server.pid)) ?? 0;
    const sampler = sampleRss(server.pid, 50);
    const statuses = new Map<number, number>();
    let bytes = 0;
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: input.concurrency }, async () => {
        for (let at = next++; at < pages; at = next++) {
          const response = await fetch(server.baseUrl + input.url(input.offset + at), { headers: { 'accept-encoding': values.encoding } });
          // Read first: `bytes += await …` would add to the total as it was before the await.
          const size = (await response.arrayBuffer()).byteLength;
          bytes += size;
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        }
      }),
    );
    const elapsed = performance.now() - started;
    const peak = Math.max(rssStart, ...(await sampler.stop()).map(([, rss]) => rss));
    return {
      kind: input.kind,
      concurrency: input.concurrency,
      build: input.build.label,
      msPerPage: elapsed / pages,
      mbPerPage: bytes / pages / 1e6,
      rssStartMiB: Math.round(rssStart / MIB),
      rssPeakMiB: Math.round(peak / MIB),
      statuses: [...statuses].map(([status, count]) => `${status}×${count}`).join(' '),
    };
  } finally {
    await server.stop();
  }
}
