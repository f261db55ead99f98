/**
 * Blame and last commits (issue 49) on a real history, each beside the git command it is
 * judged by, in one run. The history is imported once into a cached node home. Per run a
 * server starts on an empty cache directory, so no answer comes from a cache:
 * - last commits (the server's first request): the first `GET /last-commits/{head}/{folder}` (the history index cold: the
 *   request waits for it to be read), then the same folder at first-parent ancestors (index
 *   built, a new answer each), beside `git log -1 --format=%H {commit} -- {entry}` of sampled
 *   entries of the folder; and, in this process, the index read alone (`indexHistory`);
 * - blame: `GET /blame/{head}/{file}` for each file, timed beside `git blame --porcelain
 *   {head} -- {file}` run on the same repository right after it.
 *
 * usage (from the repository root, after `npm run build`):
 *   node tools/dist/bench/blame-bench.js [--history ../git.git]
 *     [--files diff.c,Makefile,refs.c,builtin/log.c] [--folder ''] [--runs 3] [--cache DIR]
 *     [--memory-budget MIB] (the server's; its last-commit index gets 3/16 of it, as here)
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { IndexBudget, openGitRepository, StorageRuntime, type Oid } from '@forge-httpd/storage';
import { buildHistoryHome, ensureBenchHome } from './bench-homes.js';
import { rawGet } from './ceiling-server.js';
import { benchCacheRoot, startForge } from './forge-server.js';
import { runChecked } from './processes.js';
import { upperMedian } from './timed-get.js';

const { values } = parseArgs({
  options: {
    history: { type: 'string', default: '../git.git' },
    files: { type: 'string', default: 'diff.c,Makefile,refs.c,builtin/log.c' },
    folder: { type: 'string', default: '' },
    runs: { type: 'string', default: '3' },
    cache: { type: 'string' },
    'memory-budget': { type: 'string' },
  },
});

const source = path.resolve(values.history);
const files = values.files.split(',').filter((file) => file !== '');
const folder = values.folder;
const runs = Number(values.runs);
const memoryBudget = values['memory-budget'];
/** First-parent ancestors asked once the index is built, per run. */
const WARM_COMMITS = 5;
/** Entries of the folder timed with `git log -1` per commit. */
const SAMPLED_ENTRIES = 9;

const head = (await runChecked('git', ['-C', source, 'rev-parse', 'HEAD'])).toString('latin1').trim();
const dir = path.join(benchCacheRoot(values.cache), 'history', `${path.basename(source).replace(/\.git$/, '')}-${head.slice(0, 12)}`);
const home = await ensureBenchHome(dir, (at) => buildHistoryHome(at, source));
const gitDir = home.gitDir;
const git = async (args: string[]): Promise<Buffer> => runChecked('git', ['--git-dir', gitDir, ...args]);
const firstParents = (await git(['rev-list', '--first-parent', `--max-count=${1 + WARM_COMMITS * runs}`, head])).toString('latin1').split('\n').filter(Boolean);
const entries = (await git(['ls-tree', '--name-only', folder === '' ? head : `${head}:${folder}`])).toString('utf8').split('\n').filter(Boolean);
const sampled = entries.filter((_, at) => at % Math.max(1, Math.floor(entries.length / SAMPLED_ENTRIES)) === 0).slice(0, SAMPLED_ENTRIES);
const entryPath = (name: string): string => (folder === '' ? name : `${folder}/${name}`);

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

const rows = new Map<string, number[]>();
const record = (name: string, ms: number): void => void rows.set(name, [...(rows.get(name) ?? []), ms]);

async function expectOk(url: string): Promise<void> {
  const answer = await rawGet(url);
  if (answer.status !== 200) throw new Error(`${url} answered ${answer.status}: ${answer.body.toString('utf8').slice(0, 200)}`);
}

for (let run = 0; run < runs; run++) {
  const server = await startForge(home.home, { waitForStartup: true, args: memoryBudget === undefined ? [] : ['--memory-budget', memoryBudget] });
  const repo = `${server.baseUrl}/api/v1/repos/${home.rid}`;
  try {
    record(
      `last-commits '${folder}' (${entries.length} entries), index cold: forge`,
      (await timed(() => expectOk(`${repo}/last-commits/${head}/${folder}`))).ms,
    );
    for (const commit of firstParents.slice(1 + run * WARM_COMMITS, 1 + (run + 1) * WARM_COMMITS)) {
      record(`last-commits '${folder}', index built: forge`, (await timed(() => expectOk(`${repo}/last-commits/${commit}/${folder}`))).ms);
      for (const name of sampled) {
        record(
          `one git log -1 -- <entry> (${sampled.length} sampled entries)`,
          (await timed(() => git(['log', '-1', '--format=%H', commit, '--', entryPath(name)]))).ms,
        );
      }
    }
    // After last commits: the server's first request is the cold one.
    for (const file of files) {
      record(`blame ${file}: forge`, (await timed(() => expectOk(`${repo}/blame/${head}/${file}`))).ms);
      record(`blame ${file}: git blame --porcelain`, (await timed(() => git(['blame', '--porcelain', head, '--', file]))).ms);
    }
  } finally {
    await server.stop();
  }
  // The index read alone, in this process on a runtime of its own (what the cold request waited for).
  const runtime = new StorageRuntime();
  const lastCommits = memoryBudget === undefined ? undefined : new IndexBudget((Number(memoryBudget) * 1024 * 1024 * 3) / 16);
  const repository = openGitRepository(gitDir, { runtime, lastCommits });
  record('history index read alone (indexHistory)', (await timed(() => repository.indexHistory(head as Oid))).ms);
  await repository.close();
  console.log(`[blame-bench] run ${run + 1}/${runs} done`);
}

const median = (name: string): number => upperMedian(rows.get(name) ?? []);
console.log(`\n## Blame and last commits on ${source} at ${head.slice(0, 12)} (${runs} runs; ms)\n`);
console.log('| measure | median | min | max | n |');
console.log('|---|---:|---:|---:|---:|');
for (const [name, list] of rows) {
  console.log(`| ${name} | ${upperMedian(list).toFixed(1)} | ${Math.min(...list).toFixed(1)} | ${Math.max(...list).toFixed(1)} | ${list.length} |`);
}
console.log('\n| ratio | value |');
console.log('|---|---:|');
for (const file of files)
  console.log(`| blame ${file} / git blame --porcelain | ${(median(`blame ${file}: forge`) / median(`blame ${file}: git blame --porcelain`)).toFixed(2)} |`);
const gitLog = median(`one git log -1 -- <entry> (${sampled.length} sampled entries)`);
console.log(`| last-commits (index built) / one git log -1 -- <entry> | ${(median(`last-commits '${folder}', index built: forge`) / gitLog).toFixed(2)} |`);
console.log(
  `| last-commits (index cold) / index read alone | ${(median(`last-commits '${folder}' (${entries.length} entries), index cold: forge`) / median('history index read alone (indexHistory)')).toFixed(2)} |`,
);
