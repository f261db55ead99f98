/**
 * `npm run bench`: builds (once, cached) the benchmark node homes, serves them with
 * forge-httpd and measures it side by side with the HTTP ceiling, the git CLI and cgit, then
 * prints the tables and target verdicts and writes them under bench-results/<timestamp>/.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CGIT_STACK, ensurePackages, WRK } from './apt.js';
import { buildLargeHome, buildSmallHome, ensureBenchHome, type BenchHome } from './bench-homes.js';
import { startCgit, type CgitServer } from './cgit-server.js';
import { REPO_ROOT, startForge, type ForgeServer } from './forge-server.js';
import { CRAWL_KINDS, crawlTable, measureCrawl, pickCrawlCommits, type CrawlRow } from './crawl.js';
import { measureDuringClones } from './clone-load.js';
import { measureAdversarial } from './adversarial-load.js';
import { timeGitBaseline } from './git-baseline.js';
import { measureCold, measureSaturation, measureScale, measureSoak, measureWarm, withRss } from './measure.js';
import { parseBenchOptions, type BenchOptions } from './options.js';
import { killAllServers } from './processes.js';
import { coldTable, judgeTargets, scaleTable, warmTable, writeResults, type BenchResults } from './report.js';
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
  if (options.phases.length > 0 && options.phases.every((phase) => phase === 'crawl')) {
    const results = await runCrawlOnly(options, large);
    const text = render(results);
    console.log(`\n${text}`);
    console.log(`results: ${await writeResults(options.outDir, results, text)}`);
    return;
  }
  const scratchDir = await mkdtemp(path.join(os.tmpdir(), 'forge-bench-'));
  const results = await runPhases(options, { large, small, cgitProblem, scratchDir }).finally(() => rm(scratchDir, { recursive: true, force: true }));
  const text = render(results);
  console.log(`\n${text}`);
  console.log(`results: ${await writeResults(options.outDir, results, text)}`);
}

async function prepareHomes(options: BenchOptions): Promise<{ large: BenchHome; small: BenchHome }> {
  const cacheDir = path.join(options.cacheDir, options.scale.name);
  const large = await ensureBenchHome(path.join(cacheDir, 'large'), (dir) => buildLargeHome(dir, options.scale));
  const small = await ensureBenchHome(path.join(cacheDir, 'small'), (dir) => buildSmallHome(dir));
  return { large, small };
}

async function runPhases(
  options: BenchOptions,
  homes: { large: BenchHome; small: BenchHome; cgitProblem: string | null; scratchDir: string },
): Promise<BenchResults> {
  const { large, small } = homes;
  const startedAt = new Date().toISOString();
  const notes = [`scale ${options.scale.name}: ${JSON.stringify(options.scale)}`];
  const routes = selectRoutes(options, buildRouteClasses(large.samples, { ...large, searchQuery: 'repo-000' }));
  const settings = { seconds: options.duration, concurrencies: options.concurrencies, scratchDir: homes.scratchDir };
  const git = large.bigGitDir === null ? [] : await timeGitBaseline(large.bigGitDir, routes, options.gitRuns);
  const cold = await measureCold(large.home, routes, options.coldRuns);
  let cgit: CgitServer | null = null;
  if (homes.cgitProblem === null && large.bigGitDir !== null) cgit = await startCgit(large.bigGitDir, path.join(homes.scratchDir, 'cgit'));
  else notes.push(`cgit baseline: ${homes.cgitProblem ?? 'no big repository'}`);
  const server = await startForge(large.home);
  const smallServer = await startForge(small.home);
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
      const { bigRid, bigGitDir } = large;
      const adversarial =
        bigRid === null || bigGitDir === null
          ? null
          : await withRss(server.pid, () =>
              measureAdversarial(server, {
                rid: bigRid,
                bigGitDir,
                trivialPath: '/api/v1/node',
                seconds: Math.max(settings.seconds, 10),
                scratchDir: homes.scratchDir,
              }),
            );
      return { warm, scaleRows, saturation, clones, adversarial };
    });
    const crawl = await runCrawl(server, large, options);
    const soak =
      options.soak > 0
        ? await measureSoak(
            server,
            routes.flatMap((r) => r.paths),
            { ...settings, soakSeconds: options.soak },
          )
        : null;
    return { startedAt, scale: options.scale.name, machine: { cpus: os.cpus().length, node: process.version }, ...result, cold, git, rss, soak, crawl, notes };
  } finally {
    await Promise.all([server.stop(), smallServer.stop(), cgit?.stop()]);
  }
}

/** `--phases crawl`: only the crawl, on a freshly started server. */
async function runCrawlOnly(options: BenchOptions, large: BenchHome): Promise<BenchResults> {
  const startedAt = new Date().toISOString();
  const server = await startForge(large.home, { waitForStartup: true });
  const other =
    options.compareWith !== null
      ? await startForge(large.home, { waitForStartup: true, root: options.compareWith })
      : options.compareWorkers !== null
        ? await startForge(large.home, { waitForStartup: true, args: ['--workers', String(options.compareWorkers)] })
        : null;
  try {
    const crawl = await runCrawl(server, large, options, other);
    const machine = { cpus: os.cpus().length, node: process.version };
    const empty = { warm: [], cold: [], git: [], scaleRows: [], saturation: null, clones: null, adversarial: null, rss: [], soak: null };
    return {
      startedAt,
      scale: options.scale.name,
      machine,
      ...empty,
      crawl,
      notes: [`scale ${options.scale.name}: ${JSON.stringify(options.scale)}`, 'phases: crawl'],
    };
  } finally {
    await Promise.all([server.stop(), other?.stop()]);
  }
}

/** The crawl phase on the big repository (null without one). */
async function runCrawl(server: ForgeServer, large: BenchHome, options: BenchOptions, other: ForgeServer | null = null): Promise<CrawlRow[] | null> {
  if (large.bigRid === null || large.bigGitDir === null) return null;
  const concurrencies = [1, 4];
  const perRun = options.crawlPages;
  const commits = await pickCrawlCommits(large.bigGitDir, 'refs/heads/master', perRun * concurrencies.length * CRAWL_KINDS.length);
  return measureCrawl(server, other, { rid: large.bigRid, gitDir: large.bigGitDir, commits }, { perRun, concurrencies, log: (line) => console.log(line) });
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
  const crawlOnly = results.notes.includes('phases: crawl');
  const verdicts = judgeTargets(results)
    .filter((v) => !crawlOnly || v.pass !== null)
    .map((v) => `- ${v.pass === null ? 'n/a ' : v.pass ? 'PASS' : 'FAIL'} ${v.target}: ${v.detail}`)
    .join('\n');
  return [
    `# forge-httpd benchmark (${results.startedAt}, scale ${results.scale}, ${results.machine.cpus} cores, node ${results.machine.node})`,
    '',
    ...(crawlOnly
      ? []
      : [
          '## Warm (wrk; ratios to the bare-Fastify ceiling and to cgit; cache hits)',
          warmTable(results.warm),
          '',
          '## Cold (first request after start) vs one git CLI invocation',
          coldTable(results.cold, results.git),
          '',
          '## Large home vs 10-repository home (c=16)',
          scaleTable(results.scaleRows),
          '',
        ]),
    ...(results.crawl === null
      ? []
      : ['## Crawl (cache misses: distinct pages, each requested once) vs the git CLI spawned per page', crawlTable(results.crawl), '']),
    '## Targets',
    verdicts,
    ...(results.notes.length > 0 ? ['', '## Notes', ...results.notes.map((n) => `- ${n}`)] : []),
    '',
  ].join('\n');
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
