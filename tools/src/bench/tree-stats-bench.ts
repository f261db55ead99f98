/**
 * First `/stats/tree` of a big repository (issue 14, a first visit): the explorer asks it for
 * its "Commits" counter on every source page of a repository and for each revision browsed,
 * and counting the authors reads every commit of the history. Each run starts, per build and
 * in turns, a server over an empty cache directory; once it is `ready` (and `--after-ready`
 * later), the repository page is asked, then `/stats/tree` of the head and of an older commit
 * (halfway down the head's first-parent line) are timed. Both builds must answer the same
 * counts. With `--compare-with DIR` the built server of another checkout runs the same.
 *
 * usage (from the repository root, after `npm run build`):
 *   node tools/dist/bench/tree-stats-bench.js [--scale full] [--runs 5] [--after-ready 500]
 *     [--compare-with DIR] [--cache DIR]
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { ensureLargeHome } from './bench-homes.js';
import { rawGet } from './ceiling-server.js';
import { benchCacheRoot, buildsToMeasure, startForge } from './forge-server.js';
import { SCALES } from './options.js';
import { runChecked } from './processes.js';
import { upperMedian } from './timed-get.js';

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: 'full' },
    runs: { type: 'string', default: '5' },
    'after-ready': { type: 'string', default: '500' },
    'compare-with': { type: 'string' },
    cache: { type: 'string' },
  },
});

const scale = SCALES[values.scale];
if (scale === undefined) throw new Error(`unknown --scale ${values.scale}`);
const runs = Number(values.runs);
const afterReadyMs = Number(values['after-ready']);
const builds = buildsToMeasure(values['compare-with']);
/** Between two pages, as a browser's requests are apart. */
const GAP_MS = 300;

const large = await ensureLargeHome(benchCacheRoot(values.cache), scale);
if (large.bigRid === null || large.bigGitDir === null) throw new Error('the bench home has no big repository');
const firstParents = (await runChecked('git', ['--git-dir', large.bigGitDir, 'rev-list', '--first-parent', 'HEAD']))
  .toString('latin1')
  .split('\n')
  .filter((line) => /^[0-9a-f]{40}$/.test(line));
const commits = { head: firstParents[0] ?? '', older: firstParents[Math.floor(firstParents.length / 2)] ?? '' };
const repo = `/api/v1/repos/${large.bigRid}`;

/** Per build and commit: the times and the answers. */
const times = new Map<string, number[]>();
const answers = new Map<string, Set<string>>();
for (let run = 0; run < runs; run++) {
  for (const build of run % 2 === 0 ? builds : [...builds].reverse()) {
    const server = await startForge(large.home, { waitForStartup: true, root: build.root });
    try {
      await sleep(afterReadyMs);
      await rawGet(`${server.baseUrl}${repo}`);
      for (const [name, sha] of Object.entries(commits)) {
        await sleep(GAP_MS);
        const started = performance.now();
        const answer = await rawGet(`${server.baseUrl}${repo}/stats/tree/${sha}`);
        const ms = performance.now() - started;
        if (answer.status !== 200) throw new Error(`${build.label}: /stats/tree/${sha} answered ${answer.status}`);
        const key = `${build.label}\0${name}`;
        times.set(key, [...(times.get(key) ?? []), ms]);
        answers.set(name, (answers.get(name) ?? new Set()).add(answer.body.toString('utf8')));
      }
    } finally {
      await server.stop();
    }
  }
  console.log(`[tree-stats] run ${run + 1}/${runs} done`);
}
for (const [name, bodies] of answers) if (bodies.size !== 1) throw new Error(`the builds answered ${name} differently: ${[...bodies].join(' / ')}`);

console.log(`\n## First /stats/tree on a fresh server (scale ${scale.name}; ${runs} runs, builds in turns; ms)\n`);
console.log('| commit | answer | build | median | min | max |');
console.log('|---|---|---|---:|---:|---:|');
for (const [name, sha] of Object.entries(commits)) {
  for (const build of builds) {
    const list = times.get(`${build.label}\0${name}`) ?? [];
    const answer = [...(answers.get(name) ?? [])].join('');
    const cell = (value: number): string => value.toFixed(1);
    console.log(
      `| ${name} ${sha.slice(0, 10)} | ${answer} | ${build.label} | ${cell(upperMedian(list))} | ${cell(Math.min(...list))} | ${cell(Math.max(...list))} |`,
    );
  }
}
