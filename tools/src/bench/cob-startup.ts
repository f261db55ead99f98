/**
 * COB start-up benchmark (issue 14, "first issue and patch listing of a 10,000-issue repository
 * < 500 ms after `ready`, also right after a restart"): a home with one tracker repository
 * (10,000 issues and 2,000 patches by default, written by the bench's own fixture code and
 * cached) is served by a fresh server process per run; once it logs `ready`, the first
 * `/issues` and then the first `/patches` of the tracker are timed, in these scenarios:
 * - `none`: no persisted COB cache (`--no-cache-dir`): every object is evaluated from git;
 * - `fresh`: an empty cache directory (evaluated from git, then written);
 * - `restart`: the same cache directory again, as after a restart;
 * - `compare`: with `--compare-with DIR`, the server of another built checkout, run as is.
 *
 * usage (from the repository root, after `npm run build`):
 *   node tools/dist/bench/cob-startup.js [--issues 10000] [--patches 2000] [--runs 3]
 *     [--cache DIR] [--compare-with DIR] [--scenarios none,fresh,restart,compare]
 *     [--after-ready MS] [--poll-ms MS]
 *
 * `--after-ready MS` waits that long after `ready` before the first listing (a visitor who
 * comes a little later), timing `/api/v1/node` every `--poll-ms` (25) meanwhile: what
 * background work after start-up costs a visitor who arrives during it (the server's
 * background work yields to requests, so a denser poll also slows it down).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildTrackerHome, ensureBenchHome } from './bench-homes.js';
import { benchCacheRoot, REPO_ROOT, startForge } from './forge-server.js';
import { readRss } from './processes.js';
import { timeGet, upperMedian } from './timed-get.js';

interface RunFigures {
  readonly startupMs: number;
  readonly issuesMs: number;
  readonly patchesMs: number;
  readonly issuesBytes: number;
  readonly patchesBytes: number;
  readonly rssMb: number;
  /** `/api/v1/node` while waiting `--after-ready` (0 when not waiting): median and max ms. */
  readonly nodeP50Ms: number;
  readonly nodeMaxMs: number;
}

const { values } = parseArgs({
  options: {
    issues: { type: 'string', default: '10000' },
    patches: { type: 'string', default: '2000' },
    runs: { type: 'string', default: '3' },
    cache: { type: 'string' },
    'compare-with': { type: 'string' },
    scenarios: { type: 'string', default: 'none,fresh,restart,compare' },
    'after-ready': { type: 'string', default: '0' },
    'poll-ms': { type: 'string', default: '25' },
  },
});
const issues = Number(values.issues);
const patches = Number(values.patches);
const runs = Number(values.runs);
const afterReadyMs = Number(values['after-ready']);
const pollMs = Number(values['poll-ms']);
const compareWith = values['compare-with'] === undefined ? null : path.resolve(values['compare-with']);
const scenarios = values.scenarios.split(',').filter((name) => name !== 'compare' || compareWith !== null);

const home = await ensureBenchHome(path.join(benchCacheRoot(values.cache), `tracker-${issues}-${patches}`), (dir) =>
  buildTrackerHome(dir, { issues, patches }),
);
const api = '/api/v1';
// Servers get their own XDG cache home, so a default cache directory never lands in ~/.cache.
const scratch = await mkdtemp(path.join(tmpdir(), 'forge-cob-startup-'));
const results = new Map<string, RunFigures[]>(scenarios.map((name) => [name, []]));
try {
  for (let run = 0; run < runs; run++) {
    const cacheDir = path.join(scratch, `cache-${run}`);
    for (const scenario of scenarios) {
      const args = scenario === 'none' ? ['--no-cache-dir'] : scenario === 'compare' ? [] : ['--cache-dir', cacheDir];
      const root = scenario === 'compare' ? (compareWith ?? REPO_ROOT) : REPO_ROOT;
      const figures = await measureRun({ root, args, xdg: path.join(scratch, `xdg-${run}-${scenario}`) });
      results.get(scenario)?.push(figures);
      console.log(`[cob-startup] run ${run + 1}/${runs} ${scenario}: ${JSON.stringify(figures)}`);
    }
  }
} finally {
  await rm(scratch, { recursive: true, force: true });
}
printTable();

async function measureRun(input: { root: string; args: readonly string[]; xdg: string }): Promise<RunFigures> {
  const server = await startForge(home.home, { waitForStartup: true, root: input.root, args: input.args, env: { XDG_CACHE_HOME: input.xdg } });
  try {
    const nodeMs: number[] = [];
    const waitStarted = performance.now();
    while (performance.now() - waitStarted < afterReadyMs) {
      nodeMs.push((await timeGet(`${server.baseUrl}${api}/node`, 2)).ms);
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
    const issuesAnswer = await timeGet(`${server.baseUrl}${api}/repos/${home.cobRid}/issues`);
    const patchesAnswer = await timeGet(`${server.baseUrl}${api}/repos/${home.cobRid}/patches`);
    const rss = (await readRss(server.pid)) ?? 0;
    return {
      startupMs: server.startupMs ?? 0,
      issuesMs: issuesAnswer.ms,
      patchesMs: patchesAnswer.ms,
      issuesBytes: issuesAnswer.bytes,
      patchesBytes: patchesAnswer.bytes,
      rssMb: Math.round(rss / 1024 / 1024),
      nodeP50Ms: upperMedian(nodeMs),
      nodeMaxMs: Math.max(0, ...nodeMs),
    };
  } finally {
    await server.stop();
  }
}

function printTable(): void {
  const waited = afterReadyMs > 0 ? `, first listing ${afterReadyMs} ms after \`ready\` (\`/api/v1/node\` every ${pollMs} ms meanwhile)` : '';
  console.log(`\n## COB start-up: ${issues} issues, ${patches} patches; medians of ${runs} runs${waited}\n`);
  console.log('| scenario | first /issues ms | then first /patches ms | ready after start ms | RSS MB | /node while waiting: median / max ms |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const [scenario, list] of results) {
    const cell = (pick: (figures: RunFigures) => number): number => upperMedian(list.map(pick));
    const node = afterReadyMs > 0 ? `${cell((f) => f.nodeP50Ms)} / ${cell((f) => f.nodeMaxMs)}` : '–';
    console.log(`| ${scenario} | ${cell((f) => f.issuesMs)} | ${cell((f) => f.patchesMs)} | ${cell((f) => f.startupMs)} | ${cell((f) => f.rssMb)} | ${node} |`);
  }
}
