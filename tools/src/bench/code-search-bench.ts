/**
 * Code search, filtered history and compare next to the git commands they stand for, on a real
 * history: the history is imported once by the node-home builder into a cached home (the same
 * one `run.ts --history` uses), one server is started on it, and each case is timed in turns
 * with its git command on the served repository, `--runs` times; the medians and their ratio
 * are printed. grep runs at a different commit each time (a first-parent ancestor of the head),
 * so no answer comes from the server's response cache.
 *
 * usage (from the repository root, after `npm run build`):
 *   node tools/dist/bench/code-search-bench.js [--history ../git.git] [--runs 5]
 *     [--rare TEXT] [--common TEXT] [--path PATH] [--author TEXT] [--cache DIR]
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildHistoryHome, ensureBenchHome } from './bench-homes.js';
import { benchCacheRoot, startForge } from './forge-server.js';
import { runChecked, runCommand } from './processes.js';
import { upperMedian } from './timed-get.js';

const { values } = parseArgs({
  options: {
    history: { type: 'string', default: '../git.git' },
    runs: { type: 'string', default: '5' },
    rare: { type: 'string', default: 'die_if_corrupt_xyzzy' },
    common: { type: 'string', default: 'the' },
    path: { type: 'string' },
    author: { type: 'string' },
    cache: { type: 'string' },
  },
});

const runs = Number(values.runs);
const source = path.resolve(values.history);
const head = (await runChecked('git', ['-C', source, 'rev-parse', 'HEAD'])).toString('latin1').trim();
const dir = path.join(benchCacheRoot(values.cache), 'history', `${path.basename(source).replace(/\.git$/, '')}-${head.slice(0, 12)}`);
const history = await ensureBenchHome(dir, (at) => buildHistoryHome(at, source));
const GIT_ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', LC_ALL: 'C' };
/**
 * The server's git reads a commit-graph of its own with changed-path filters (an overlay object
 * directory, graph/commit-graph-overlays.ts) in front of the stored repository. The baseline
 * git gets the same: one written here once, used the way the server uses its overlay.
 */
const overlay = path.join(dir, 'git-overlay');
const OVERLAY_ENV = { ...GIT_ENV, GIT_OBJECT_DIRECTORY: overlay, GIT_ALTERNATE_OBJECT_DIRECTORIES: path.join(history.gitDir, 'objects') };
if (!existsSync(path.join(overlay, 'info', 'commit-graph'))) {
  await mkdir(path.join(overlay, 'info'), { recursive: true });
  await runChecked('git', ['--git-dir', history.gitDir, 'commit-graph', 'write', '--reachable', '--changed-paths', `--object-dir=${overlay}`], {
    env: OVERLAY_ENV,
  });
}

/** git on the served repository, as the server runs it (isolated configuration, the overlay); stdout, whatever the exit code. */
async function git(args: readonly string[]): Promise<Buffer> {
  const result = await runCommand('git', ['--git-dir', history.gitDir, '-c', 'core.quotePath=false', ...args], { env: OVERLAY_ENV });
  if (result.code !== 0 && result.code !== 1) throw new Error(`git ${args.join(' ')} exited ${result.code}: ${result.stderr.slice(0, 500)}`);
  return result.stdout;
}

const lines = (output: Buffer): string[] =>
  output
    .toString('latin1')
    .split('\n')
    .filter((line) => line !== '');
const firstParents = lines(await git(['rev-list', '--first-parent', '--max-count=200', 'HEAD']));
const tip = firstParents[0] ?? head;
const rootFiles = lines(await git(['ls-tree', '--name-only', tip]));
const filterPath = values.path ?? (rootFiles.includes('README.md') ? 'README.md' : (rootFiles[0] ?? ''));
const author = values.author ?? (await git(['log', '-1', '--format=%ae', tip])).toString('utf8').trim();

const server = await startForge(history.home, { waitForStartup: true });
const repo = `${server.baseUrl}/api/v1/repos/${history.rid}`;

/** Times one GET, reading the whole body; throws unless 200. */
async function timeHttp(url: string): Promise<{ ms: number; bytes: number }> {
  const started = performance.now();
  const response = await fetch(url);
  const body = await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${Buffer.from(body).toString('utf8').slice(0, 200)}`);
  return { ms: performance.now() - started, bytes: body.byteLength };
}

/** Times git commands run one after the other (what one answer stands for). */
async function timeGit(commands: ReadonlyArray<readonly string[]>): Promise<number> {
  const started = performance.now();
  for (const args of commands) await git(args);
  return performance.now() - started;
}

interface BenchCase {
  readonly name: string;
  readonly url: (run: number) => string;
  readonly git: (run: number) => Promise<ReadonlyArray<readonly string[]>>;
}

const grepArgs = (text: string, sha: string): string[] => ['grep', '-F', '-n', '-I', '--no-color', '-e', text, sha, '--'];
const at = (run: number): string => firstParents[(run + 1) % firstParents.length] ?? tip;
const compareBase = firstParents[100] ?? firstParents.at(-1) ?? tip;

const cases: BenchCase[] = [
  {
    name: `grep, rare string "${values.rare}"`,
    url: (run) => `${repo}/grep/${at(run)}?q=${encodeURIComponent(values.rare)}`,
    git: async (run) => [grepArgs(values.rare, at(run))],
  },
  {
    name: `grep, common string "${values.common}" (server stops at 1,000 matches; git prints all)`,
    url: (run) => `${repo}/grep/${at(run)}?q=${encodeURIComponent(values.common)}`,
    git: async (run) => [grepArgs(values.common, at(run))],
  },
  {
    name: `history, path "${filterPath}", first page (30)`,
    url: () => `${repo}/commits?path=${encodeURIComponent(filterPath)}`,
    git: async () => [['--literal-pathspecs', 'rev-list', '--max-count=30', tip, '--', filterPath]],
  },
  {
    name: `history, path "${filterPath}", all of it`,
    url: () => `${repo}/commits?since=-1&path=${encodeURIComponent(filterPath)}`,
    git: async () => [['--literal-pathspecs', 'rev-list', tip, '--', filterPath]],
  },
  {
    name: `history, author "${author}", first page (30)`,
    url: () => `${repo}/commits?author=${encodeURIComponent(author)}`,
    git: async () => [['rev-list', '-i', '-F', `--author=${author}`, '--max-count=30', tip]],
  },
  {
    name: `history, author "${author}", all of it`,
    url: () => `${repo}/commits?since=-1&author=${encodeURIComponent(author)}`,
    git: async () => [['rev-list', '-i', '-F', `--author=${author}`, tip]],
  },
  {
    name: 'compare, 100 first-parent commits apart',
    url: () => `${repo}/compare/${compareBase}...${tip}`,
    git: async () => {
      const mergeBase = (await git(['merge-base', compareBase, tip])).toString('latin1').trim();
      return [
        ['rev-list', '--left-right', '--count', `${compareBase}...${tip}`],
        ['merge-base', compareBase, tip],
        ['rev-list', '--max-count=250', tip, `^${compareBase}`],
        ['diff-tree', '-r', '-z', '--raw', '-p', '-M', '-C', mergeBase, tip],
      ];
    },
  },
];

const rows: string[] = [];
try {
  for (const benchCase of cases) {
    const served: number[] = [];
    const cli: number[] = [];
    let bytes = 0;
    // One unmeasured round each: the first open of the repository, git's first read of the packs.
    await timeHttp(benchCase.url(runs));
    await timeGit(await benchCase.git(runs));
    for (let run = 0; run < runs; run++) {
      const commands = await benchCase.git(run);
      // In turns: the server first on even runs, git first on odd ones.
      const first = run % 2 === 0 ? await timeHttp(benchCase.url(run)) : null;
      cli.push(await timeGit(commands));
      const answer = first ?? (await timeHttp(benchCase.url(run)));
      served.push(answer.ms);
      bytes = answer.bytes;
    }
    const [ours, theirs] = [upperMedian(served), upperMedian(cli)];
    rows.push(`| ${benchCase.name} | ${ours.toFixed(0)} | ${theirs.toFixed(0)} | ${(ours / theirs).toFixed(2)} | ${bytes} |`);
    console.log(`[code-search] ${benchCase.name}: ${ours.toFixed(0)} ms vs git ${theirs.toFixed(0)} ms`);
  }
} finally {
  await server.stop();
}
console.log(`\n## Code search, filtered history, compare vs git (${path.basename(source)} at ${tip.slice(0, 12)}; ${runs} runs in turns; medians, ms)\n`);
console.log('| case | forge-httpd (HTTP) | git CLI | ratio | answer bytes |');
console.log('|---|---:|---:|---:|---:|');
for (const row of rows) console.log(row);
