/**
 * `npm run bench`: builds (once, cached) the benchmark node homes, serves them with
 * forge-httpd and measures it side by side with the HTTP ceiling, the git CLI and cgit, then
 * prints the tables and target verdicts and writes them under bench-results/<timestamp>/.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CGIT_STACK, ensurePackages, WRK } from './apt.js';
import {
  buildHistoryHome,
  buildSmallHome,
  historyName,
  ensureBenchHome,
  ensureLargeHome,
  SMALL_HOME_DIR,
  type BenchHome,
  type HistoryHome,
} from './bench-homes.js';
import { startCgit, type CgitServer } from './cgit-server.js';
import { REPO_ROOT, startForge } from './forge-server.js';
import { CRAWL_KINDS, crawlTable, measureCrawl, pickCrawlCommits, type CrawlRow, type CrawlServers } from './crawl.js';
import { measureDuringClones } from './clone-load.js';
import { measureAdversarial } from './adversarial-load.js';
import { measureStalledReaders } from './stalled-readers.js';
import { timeGitBaseline } from './git-baseline.js';
import { measureCold, measureSaturation, measureScale, measureSoak, measureWarm, withRss, type ColdRow } from './measure.js';
import { parseBenchOptions, type BenchOptions } from './options.js';
import { killAllServers, runChecked } from './processes.js';
import { coldTable, judgeTargets, scaleTable, warmTable, writeResults, type BenchResults } from './report.js';
import { measureRealHistory, probeTable, type RealHistoryRun } from './real-histories.js';
import type { GitTiming } from './git-baseline.js';
import { buildRouteClasses, HEAVY_ROUTES, type RouteClass } from './workload.js';

async function main(): Promise<void> {
  const options = parseBenchOptions(process.argv.slice(2), REPO_ROOT);
  if (options.prepareOnly) {
    await prepareHomes(options);
    return;
  }
  const missing = await ensurePackages([WRK], !options.skipInstall);
  if (missing !== null) throw new Error(`wrk is required: ${missing}`);
  const cgitProblem = options.skipCgit ? 'skipped (--no-cgit)' : await ensurePackages(CGIT_STACK, !options.skipInstall);
  const { large, small } = await prepareHomes(options);
  const histories = await prepareHistories(options);
  const selected = options.phases.length > 0 && options.phases.every((phase) => SELECTABLE_PHASES.includes(phase));
  const scratchDir = await mkdtemp(path.join(os.tmpdir(), 'forge-bench-'));
  const homes = { large, small, histories, cgitProblem, scratchDir };
  const results = await (selected ? runSelectedPhases(options, homes) : runPhases(options, homes)).finally(() =>
    rm(scratchDir, { recursive: true, force: true }),
  );
  const text = render(results);
  console.log(`\n${text}`);
  console.log(`results: ${await writeResults(options.outDir, results, text)}`);
}

async function prepareHomes(options: BenchOptions): Promise<{ large: BenchHome; small: BenchHome }> {
  const cacheDir = path.join(options.cacheDir, options.scale.name);
  const large = await ensureLargeHome(options.cacheDir, options.scale);
  const small = await ensureBenchHome(path.join(cacheDir, SMALL_HOME_DIR), (dir) => buildSmallHome(dir));
  return { large, small };
}

/** The phases `--phases` may run on their own, on freshly started servers. */
const SELECTABLE_PHASES = ['crawl', 'cold', 'real'];

/** `--history DIR…`: the homes the real histories are imported into (each cached by source name and HEAD). */
async function prepareHistories(options: BenchOptions): Promise<HistoryHome[]> {
  const homes: HistoryHome[] = [];
  for (const source of options.histories) {
    const head = (await runChecked('git', ['-C', source, 'rev-parse', 'HEAD'])).toString('latin1').trim();
    const dir = path.join(options.cacheDir, 'history', `${historyName(source)}-${head.slice(0, 12)}`);
    homes.push(await ensureBenchHome(dir, (at) => buildHistoryHome(at, source)));
  }
  return homes;
}

/** The homes a run reads and what it may start. */
interface RunHomes {
  readonly large: BenchHome;
  readonly small: BenchHome;
  readonly histories: readonly HistoryHome[];
  /** Why cgit cannot run (null: it can). */
  readonly cgitProblem: string | null;
  readonly scratchDir: string;
}

async function runPhases(options: BenchOptions, homes: RunHomes): Promise<BenchResults> {
  const { large, small } = homes;
  const startedAt = new Date().toISOString();
  const notes = runNotes(options);
  const routes = selectRoutes(options, buildRouteClasses(large.samples, { ...large, searchQuery: 'repo-000' }));
  const settings = { seconds: options.duration, concurrencies: options.concurrencies, scratchDir: homes.scratchDir };
  const git = large.bigGitDir === null ? [] : await timeGitBaseline(large.bigGitDir, routes, options.gitRuns, large.samples);
  const cold = await measureCold(large.home, routes, { runs: options.coldRuns, compareRoot: options.compareWith, scratchDir: homes.scratchDir });
  let cgit: CgitServer | null = null;
  if (homes.cgitProblem === null && large.bigGitDir !== null) cgit = await startCgit(large.bigGitDir, path.join(homes.scratchDir, 'cgit'));
  else notes.push(`cgit baseline: ${homes.cgitProblem ?? 'no big repository'}`);
  const server = await startForge(large.home, { args: options.serverArgs });
  const smallServer = await startForge(small.home, { args: options.serverArgs });
  try {
    const { result, rss } = await withRss(server.pid, async () => {
      const warm = await measureWarm(server, routes, { ...settings, cgit });
      const scaleRows = await measureScale(server, smallServer, scalePairs(large, small), settings);
      const heavy = routes.filter((r) => HEAVY_ROUTES.includes(r.name)).flatMap((r) => r.paths);
      const saturation = heavy.length > 0 ? await measureSaturation(server, '/api/v1/node', heavy, settings) : null;
      const clones =
        large.bigRid === null
          ? null
          : await measureDuringClones(server, {
              rid: large.bigRid,
              trivialPath: '/api/v1/node',
              seconds: Math.max(settings.seconds, 10),
              scratchDir: homes.scratchDir,
            });
      const hostile = hostileLoad(large, settings.seconds, homes.scratchDir);
      const adversarial = hostile === null ? null : await withRss(server.pid, () => measureAdversarial(server, hostile));
      return { warm, scaleRows, saturation, clones, adversarial };
    });
    const crawl = large.bigRid === null || large.bigGitDir === null ? null : await runCrawl({ forge: server, other: null, cgit }, bigTarget(large), options);
    const soak =
      options.soak > 0
        ? await measureSoak(
            server,
            routes.flatMap((r) => r.paths),
            { ...settings, soakSeconds: options.soak },
          )
        : null;
    // Last: what the stalled readers leave behind in the process changes nothing measured before.
    const hostile = hostileLoad(large, settings.seconds, homes.scratchDir);
    const stalledReaders = hostile === null ? null : await withRss(server.pid, () => measureStalledReaders(server, hostile));
    const machine = { cpus: os.cpus().length, node: process.version };
    const realHistories = await measureRealHistories(options, homes);
    return { startedAt, scale: options.scale.name, machine, ...result, cold, git, rss, soak, crawl, realHistories, stalledReaders, notes };
  } finally {
    await Promise.all([server.stop(), smallServer.stop(), cgit?.stop()]);
  }
}

/** What the hostile-client phases load: the big repository, the trivial route they measure, at least 10 s. */
function hostileLoad(
  home: { bigRid: string | null; bigGitDir: string | null },
  seconds: number,
  scratchDir: string,
): { rid: string; bigGitDir: string; trivialPath: string; seconds: number; scratchDir: string } | null {
  if (home.bigRid === null || home.bigGitDir === null) return null;
  return { rid: home.bigRid, bigGitDir: home.bigGitDir, trivialPath: '/api/v1/node', seconds: Math.max(seconds, 10), scratchDir };
}

/**
 * `--phases crawl`, `--phases cold` or both: only those, on freshly started servers (the crawl
 * also on the imported history's).
 */
async function runSelectedPhases(options: BenchOptions, homes: RunHomes): Promise<BenchResults> {
  const startedAt = new Date().toISOString();
  const { large } = homes;
  const notes = [...runNotes(options), `${PHASES_NOTE}${options.phases.join(',')}`];
  let cold: ColdRow[] = [];
  let git: GitTiming[] = [];
  if (options.phases.includes('cold')) {
    const routes = selectRoutes(options, buildRouteClasses(large.samples, { ...large, searchQuery: 'repo-000' }));
    git = large.bigGitDir === null ? [] : await timeGitBaseline(large.bigGitDir, routes, options.gitRuns, large.samples);
    cold = await measureCold(large.home, routes, { runs: options.coldRuns, compareRoot: options.compareWith, scratchDir: homes.scratchDir });
  }
  let crawl: CrawlRow[] | null = null;
  if (homes.cgitProblem !== null) notes.push(`cgit baseline: ${homes.cgitProblem}`);
  if (options.phases.includes('crawl') && large.bigRid !== null && large.bigGitDir !== null)
    crawl = await crawlOnServers(options, homes, { home: large.home, ...bigTarget(large) }, 'cgit');
  const realHistories = options.phases.includes('real') ? await measureRealHistories(options, homes) : [];
  const machine = { cpus: os.cpus().length, node: process.version };
  const empty = { warm: [], scaleRows: [], saturation: null, clones: null, adversarial: null, rss: [], soak: null, stalledReaders: null };
  return { startedAt, scale: options.scale.name, machine, ...empty, cold, git, crawl, realHistories, notes };
}

/** The notes every run starts with: the scale, and the arguments this build's servers got. */
function runNotes(options: BenchOptions): string[] {
  const notes = [`scale ${options.scale.name}: ${JSON.stringify(options.scale)}`];
  if (options.serverArgs.length > 0) notes.push(`forge-httpd started with ${options.serverArgs.join(' ')}`);
  return notes;
}

/** Marks, in the notes, a run limited by `--phases` (render leaves the other tables out). */
const PHASES_NOTE = 'phases: ';

/** The real-histories phase: each `--history` on servers of its own, one history after another. */
async function measureRealHistories(options: BenchOptions, homes: RunHomes): Promise<RealHistoryRun[]> {
  const runs: RealHistoryRun[] = [];
  for (const history of homes.histories) {
    const settings = { perRun: options.crawlPages, settleSeconds: options.settleSeconds, serverArgs: options.serverArgs, cgitProblem: homes.cgitProblem };
    runs.push(await measureRealHistory(history, { ...settings, scratchDir: homes.scratchDir, log: (line) => console.log(line) }));
  }
  return runs;
}

/** Starts forge-httpd (and the compared server, and cgit) on a home, crawls it, stops them. */
async function crawlOnServers(options: BenchOptions, homes: RunHomes, target: CrawlTarget & { home: string }, cgitDir: string): Promise<CrawlRow[]> {
  const started: Array<{ stop(): Promise<void> }> = [];
  const start = async <T extends { stop(): Promise<void> }>(server: Promise<T>): Promise<T> => {
    const running = await server;
    started.push(running);
    return running;
  };
  try {
    const forge = await start(startForge(target.home, { waitForStartup: true, args: options.serverArgs }));
    const other =
      options.compareWith !== null
        ? await start(startForge(target.home, { waitForStartup: true, root: options.compareWith }))
        : options.compareWorkers !== null
          ? await start(startForge(target.home, { waitForStartup: true, args: [...options.serverArgs, '--workers', String(options.compareWorkers)] }))
          : null;
    const cgit = homes.cgitProblem === null ? await start(startCgit(target.gitDir, path.join(homes.scratchDir, cgitDir))) : null;
    return await runCrawl({ forge, other, cgit }, target, options);
  } finally {
    await Promise.all(started.map((server) => server.stop()));
  }
}

/** The repository a crawl reads: its RID, git directory and the branch whose commits it picks. */
interface CrawlTarget {
  readonly rid: string;
  readonly gitDir: string;
  readonly branch: string;
}

function bigTarget(large: BenchHome): CrawlTarget {
  return { rid: large.bigRid ?? '', gitDir: large.bigGitDir ?? '', branch: 'refs/heads/master' };
}

/** The crawl phase on one repository. */
async function runCrawl(servers: CrawlServers, target: CrawlTarget, options: BenchOptions): Promise<CrawlRow[]> {
  const concurrencies = [1, 4];
  const perRun = options.crawlPages;
  const commits = await pickCrawlCommits(target.gitDir, target.branch, perRun * concurrencies.length * CRAWL_KINDS.length);
  return measureCrawl(servers, { ...target, commits }, { perRun, concurrencies, log: (line) => console.log(line) });
}

function selectRoutes(options: BenchOptions, routes: RouteClass[]): RouteClass[] {
  return options.routes.length === 0 ? routes : routes.filter((r) => options.routes.includes(r.name));
}

/** Listing and COB routes addressed on both homes, for the "within 2×" comparisons. */
function scalePairs(large: BenchHome, small: BenchHome): Array<{ name: string; large: string[]; small: string[] }> {
  const api = '/api/v1';
  const both = (name: string, f: (h: BenchHome) => string): { name: string; large: string[]; small: string[] } => ({
    name,
    large: [f(large)],
    small: [f(small)],
  });
  return [
    both('repos', () => `${api}/repos?show=all`),
    both('search', () => `${api}/repos/search?q=repo-0000`),
    both('repo', (h) => `${api}/repos/${h.plainRid}`),
    both('issues', (h) => `${api}/repos/${h.cobRid}/issues`),
    both('patches', (h) => `${api}/repos/${h.cobRid}/patches`),
  ];
}

function render(results: BenchResults): string {
  const selected = results.notes.some((note) => note.startsWith(PHASES_NOTE));
  const verdicts = judgeTargets(results)
    .filter((v) => !selected || v.pass !== null)
    .map((v) => `- ${v.pass === null ? 'n/a ' : v.pass ? 'PASS' : 'FAIL'} ${v.target}: ${v.detail}`)
    .join('\n');
  return [
    `# forge-httpd benchmark (${results.startedAt}, scale ${results.scale}, ${results.machine.cpus} cores, node ${results.machine.node})`,
    '',
    ...(selected
      ? []
      : [
          '## Warm (wrk; ratios to the bare-Fastify ceiling and to cgit): cache hits',
          'Every URL was requested once before wrk runs: forge-httpd answers from its caches; cgit (page cache off) computes each page.',
          warmTable(results.warm),
          '',
        ]),
    ...(selected && results.cold.length === 0
      ? []
      : [
          "## Cold (a server's first request, on a first start and after a restart) vs one git CLI invocation: cache misses",
          coldTable(results.cold, results.git),
          '',
        ]),
    ...(selected ? [] : ['## Large home vs 10-repository home (c=16)', scaleTable(results.scaleRows), '']),
    ...(results.crawl === null
      ? []
      : ['## Crawl of the generated repository: cache misses (distinct pages, each requested once) vs cgit and the git CLI', crawlTable(results.crawl), '']),
    ...results.realHistories.flatMap(realHistorySection),
    '## Targets',
    verdicts,
    ...(results.notes.length > 0 ? ['', '## Notes', ...results.notes.map((n) => `- ${n}`)] : []),
    '',
  ].join('\n');
}

/** One real history's tables: the crawl fresh, the crawl settled, the idle-server probes. */
function realHistorySection(run: RealHistoryRun): string[] {
  const shape = `${run.commits} commits, ${run.merges} merges, ${run.packs} pack${run.packs === 1 ? '' : 's'}`;
  return [
    `## Real history ${run.name} (${shape}): crawl on a fresh server, cache misses vs cgit and the git CLI`,
    crawlTable(run.fresh),
    '',
    `## Real history ${run.name}: crawl after the server settled (${run.settleSeconds.toFixed(0)} s), new pages`,
    crawlTable(run.settled),
    '',
    `## Real history ${run.name}: idle-server probes`,
    probeTable(run),
    '',
  ];
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killAllServers();
    process.exit(130);
  });
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    killAllServers();
    process.exit(1);
  },
);
