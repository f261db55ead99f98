/**
 * The real-histories phase: local clones of public repositories, imported into bench homes
 * as fetched (no repack, no commit-graph: what a node's storage holds after a fetch), crawled
 * on a fresh server and again once the server has settled (its background index builds done),
 * side by side with cgit and the git CLI; then two idle-server probes that generated histories
 * cannot stand in for: root-tree pages one after another, and the first visit of files nobody
 * touched for years.
 */
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { historyName, type HistoryHome } from './bench-homes.js';
import { startCgit, type CgitServer } from './cgit-server.js';
import { CRAWL_KINDS, gitCommand, gitPage, measureCrawl, pickCrawlCommits, type CrawlCommit, type CrawlRow } from './crawl.js';
import { startForge, type ForgeServer } from './forge-server.js';
import { runChecked, sleep } from './processes.js';

/** Latencies of the same requests to forge-httpd and of the git CLI's reads for them. */
export interface PairedLatencies {
  readonly label: string;
  readonly forge: readonly number[];
  readonly git: readonly number[];
}

/** One real history's measurements. */
export interface RealHistoryRun {
  readonly name: string;
  readonly commits: number;
  readonly merges: number;
  readonly packs: number;
  readonly fresh: CrawlRow[];
  /** Seconds the server took to settle (CPU idle) after the fresh crawl, or the cap. */
  readonly settleSeconds: number;
  readonly settled: CrawlRow[];
  /** Root-tree pages of distinct commits, one after another, on the settled server. */
  readonly rootTrees: PairedLatencies;
  /** First visits of blob pages at HEAD of files unchanged for years: the fresh server's first requests (reported). */
  readonly oldBlobsFresh: PairedLatencies;
  /** The same for other such files once the server settled (judged: a visitor's first visit of an old file). */
  readonly oldBlobs: PairedLatencies;
  /** The same for a third set of such files on a server restarted over the first one's cache directory. */
  readonly oldBlobsAfterRestart: PairedLatencies;
  /** Commit pages of commits not requested before, on the restarted server, against the git CLI's reads for each. */
  readonly commitsAfterRestart: PairedLatencies;
}

export interface RealHistorySettings {
  readonly perRun: number;
  readonly settleSeconds: number;
  readonly serverArgs: readonly string[];
  /** Why cgit cannot run (null: it can). */
  readonly cgitProblem: string | null;
  readonly scratchDir: string;
  readonly log: (line: string) => void;
}

const CONCURRENCIES = [1, 4] as const;
const ROOT_TREES = 50;
const OLD_BLOBS = 10;
/** Commit pages requested one after another after the restart. */
const RESTART_COMMITS = 20;
const UNTOUCHED_YEARS = 3;

/** Measures one imported real history on its own freshly started servers. */
export async function measureRealHistory(history: HistoryHome, settings: RealHistorySettings): Promise<RealHistoryRun> {
  const name = historyName(history.source);
  const log = (line: string): void => settings.log(`[${name}] ${line}`);
  const shape = await historyShape(history);
  const perPhase = settings.perRun * CONCURRENCIES.length * CRAWL_KINDS.length;
  const picked = await pickCrawlCommits(history.gitDir, history.branch, perPhase * 2 + ROOT_TREES + RESTART_COMMITS);
  const spare = picked.length - ROOT_TREES - RESTART_COMMITS;
  const perRun = Math.min(settings.perRun, Math.floor(spare / (2 * CONCURRENCIES.length * CRAWL_KINDS.length)));
  if (perRun < 5) throw new Error(`${name}: too few commits with a changed file for a crawl (${picked.length})`);
  const old = await findOldFiles(history, OLD_BLOBS * 3);
  const oldSet = (set: number): string[] => old.files.filter((_, i) => i % 3 === set);
  // Kept across the two servers (the restart probe), removed with the scratch directory.
  const cacheDir = await mkdtemp(path.join(settings.scratchDir, `cache-${name}-`));
  const serverArgs = [...settings.serverArgs, '--cache-dir', cacheDir];
  const cgit = settings.cgitProblem === null ? await startCgit(history.gitDir, path.join(settings.scratchDir, `cgit-${name}`)) : null;
  try {
    const forge = await startForge(history.home, { waitForStartup: true, args: serverArgs });
    const first = await measureFirstServer(
      { forge, cgit },
      { history, perRun, settings, log },
      {
        crawl: picked.slice(0, spare),
        rootTrees: picked.slice(spare, spare + ROOT_TREES),
        old,
        oldFresh: oldSet(0),
        oldSettled: oldSet(1),
      },
    ).finally(() => forge.stop());
    const restarted = await startForge(history.home, { waitForStartup: true, args: serverArgs });
    try {
      const oldBlobsAfterRestart = await measureOldBlobs(restarted, history, old, oldSet(2), 'after a restart, cache kept');
      const commitsAfterRestart = await measureCommitPages(restarted, history, picked.slice(spare + ROOT_TREES));
      return { name, ...shape, ...first, oldBlobsAfterRestart, commitsAfterRestart };
    } finally {
      await restarted.stop();
    }
  } finally {
    await cgit?.stop();
  }
}

/**
 * On the first server: old files' first blob pages (its first requests), the crawl, the wait
 * until it settled, the crawl again on other commits, root trees one after another, other old
 * files' first blob pages.
 */
async function measureFirstServer(
  servers: { forge: ForgeServer; cgit: CgitServer | null },
  run: { history: HistoryHome; perRun: number; settings: RealHistorySettings; log: (line: string) => void },
  pages: { crawl: readonly CrawlCommit[]; rootTrees: readonly CrawlCommit[]; old: OldFiles; oldFresh: string[]; oldSettled: string[] },
): Promise<Omit<RealHistoryRun, 'name' | 'commits' | 'merges' | 'packs' | 'oldBlobsAfterRestart' | 'commitsAfterRestart'>> {
  const { forge, cgit } = servers;
  const { history, perRun, log } = run;
  const perPhase = perRun * CONCURRENCIES.length * CRAWL_KINDS.length;
  const oldBlobsFresh = await measureOldBlobs(forge, history, pages.old, pages.oldFresh, 'fresh server');
  log(`old files, fresh: forge max ${Math.max(...oldBlobsFresh.forge).toFixed(0)} ms, git max ${Math.max(...oldBlobsFresh.git).toFixed(0)} ms`);
  const crawl = (commits: readonly CrawlCommit[]): Promise<CrawlRow[]> =>
    measureCrawl({ forge, other: null, cgit }, { rid: history.rid, gitDir: history.gitDir, commits }, { perRun, concurrencies: CONCURRENCIES, log });
  const fresh = await crawl(pages.crawl.slice(0, perPhase));
  const settleSeconds = await waitUntilIdle(forge.pid, run.settings.settleSeconds);
  log(`settled after ${settleSeconds.toFixed(0)} s`);
  const settled = await crawl(pages.crawl.slice(perPhase, 2 * perPhase));
  const rootTrees = await measureRootTrees(forge, history, pages.rootTrees);
  const oldBlobs = await measureOldBlobs(forge, history, pages.old, pages.oldSettled, 'settled server');
  return { fresh, settleSeconds, settled, rootTrees, oldBlobsFresh, oldBlobs };
}

async function historyShape(history: HistoryHome): Promise<{ commits: number; merges: number; packs: number }> {
  const count = async (args: string[]): Promise<number> => Number((await runChecked('git', ['-C', history.gitDir, ...args])).toString('latin1').trim());
  const packs = (await runChecked('git', ['-C', history.gitDir, 'count-objects', '-v'])).toString('latin1').match(/^packs: (\d+)$/m)?.[1];
  return {
    commits: await count(['rev-list', '--count', history.branch]),
    merges: await count(['rev-list', '--count', '--merges', history.branch]),
    packs: Number(packs ?? 0),
  };
}

/** Files at the branch head whose last change is years old, and that head. */
interface OldFiles {
  readonly head: string;
  readonly files: readonly string[];
  readonly unchangedSince: string;
}

/**
 * Files at the branch head whose blob is the one they had `UNTOUCHED_YEARS` years before the
 * head's date (so their last change is at least that old; half the history's age for a younger
 * history), `count` of them spread over the tree.
 */
async function findOldFiles(history: HistoryHome, count: number): Promise<OldFiles> {
  const git = (args: string[]): Promise<string> => runChecked('git', ['-C', history.gitDir, ...args]).then((out) => out.toString('utf8'));
  const head = (await git(['rev-parse', history.branch])).trim();
  const headTime = Number((await git(['show', '-s', '--format=%ct', head])).trim());
  const roots = (await git(['rev-list', '--max-parents=0', head])).trim().split('\n');
  const rootTime = Number((await git(['show', '-s', '--format=%ct', roots[roots.length - 1] ?? head])).trim());
  const before = new Date((headTime - Math.min(UNTOUCHED_YEARS * 365 * 86_400, (headTime - rootTime) / 2)) * 1000).toISOString();
  const old = (await git(['rev-list', '-1', '--first-parent', `--before=${before}`, head])).trim();
  const blobs = (commit: string): Promise<Map<string, string>> =>
    git(['ls-tree', '-r', '-z', commit]).then(
      (out) =>
        new Map(
          out
            .split('\0')
            .filter((l) => l.includes(' blob '))
            .map((l) => [l.slice(l.indexOf('\t') + 1), l.split(' ')[2] ?? '']),
        ),
    );
  const [now, then] = await Promise.all([blobs(head), blobs(old)]);
  const unchanged = [...now].filter(([file, oid]) => then.get(file) === oid).map(([file]) => file);
  const step = Math.max(1, Math.floor(unchanged.length / count));
  return { head, files: unchanged.filter((_, i) => i % step === 0).slice(0, count), unchangedSince: before.slice(0, 10) };
}

/** Each file's blob page at the head requested once, one after another, beside the git CLI's reads for it. */
async function measureOldBlobs(forge: ForgeServer, history: HistoryHome, old: OldFiles, files: readonly string[], when: string): Promise<PairedLatencies> {
  const forgeMs: number[] = [];
  const gitMs: number[] = [];
  for (const file of files) {
    forgeMs.push(await timedGet(`${forge.baseUrl}/api/v1/repos/${history.rid}/blob/${old.head}/${urlPath(file)}`));
    const started = performance.now();
    await gitCommand(history.gitDir, ['cat-file', '-p', `${old.head}:${file}`]);
    await gitCommand(history.gitDir, ['log', '-1', '--format=raw', old.head, '--', file]);
    gitMs.push(performance.now() - started);
  }
  return { label: `first blob page, ${when}: ${files.length} files unchanged since ${old.unchangedSince}`, forge: forgeMs, git: gitMs };
}

/** Root-tree pages of distinct commits, one after another, against `git ls-tree` of the same commits. */
async function measureRootTrees(forge: ForgeServer, history: HistoryHome, commits: readonly CrawlCommit[]): Promise<PairedLatencies> {
  const forgeMs: number[] = [];
  const gitMs: number[] = [];
  for (const c of commits) {
    forgeMs.push(await timedGet(`${forge.baseUrl}/api/v1/repos/${history.rid}/tree/${c.commit}/`));
    const started = performance.now();
    await gitCommand(history.gitDir, ['ls-tree', c.commit]);
    gitMs.push(performance.now() - started);
  }
  return { label: `${commits.length} root trees, one after another`, forge: forgeMs, git: gitMs };
}

/** Commit pages one after another, each against the git CLI's reads for the same page (`gitPage`). */
async function measureCommitPages(forge: ForgeServer, history: HistoryHome, commits: readonly CrawlCommit[]): Promise<PairedLatencies> {
  const forgeMs: number[] = [];
  const gitMs: number[] = [];
  for (const c of commits) {
    forgeMs.push(await timedGet(`${forge.baseUrl}/api/v1/repos/${history.rid}/commits/${c.commit}`));
    const started = performance.now();
    await gitPage(history.gitDir, 'commit', c);
    gitMs.push(performance.now() - started);
  }
  return { label: `commit pages after a restart, cache kept: ${commits.length}, one after another`, forge: forgeMs, git: gitMs };
}

/**
 * Waits until the server and every process under it (git children included: a background index
 * build runs in one) used under 2% of a core over 6 s, or `capSeconds` passed; returns the
 * seconds waited.
 */
async function waitUntilIdle(pid: number, capSeconds: number): Promise<number> {
  const started = performance.now();
  let previous = await treeCpuSeconds(pid);
  const window: number[] = [];
  while ((performance.now() - started) / 1000 < capSeconds) {
    await sleep(2_000);
    const now = await treeCpuSeconds(pid);
    window.push(Math.max(0, now - previous));
    previous = now;
    if (window.length >= 3 && window.slice(-3).reduce((a, b) => a + b, 0) < 0.12) break;
  }
  return (performance.now() - started) / 1000;
}

/** CPU seconds (user + system, reaped children included) of `pid` and every live process below it (Linux `/proc`, 100 ticks/s). */
async function treeCpuSeconds(pid: number): Promise<number> {
  const stats = new Map<number, { parent: number; ticks: number }>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'latin1').catch(() => null);
    if (stat === null) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    stats.set(Number(entry), { parent: Number(fields[1]), ticks: [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i] ?? 0), 0) });
  }
  const below = (id: number): boolean => {
    for (let at = id, hops = 0; at > 1 && hops < 64; at = stats.get(at)?.parent ?? 0, hops++) if (at === pid) return true;
    return false;
  };
  let ticks = 0;
  for (const [id, stat] of stats) if (below(id)) ticks += stat.ticks;
  return ticks / 100;
}

function timedGet(url: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(url, (response) => {
        response.resume();
        response.on('end', () =>
          response.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`HTTP ${response.statusCode} for ${url}`)),
        );
      })
      .on('error', reject);
  });
}

function urlPath(file: string): string {
  return file.split('/').map(encodeURIComponent).join('/');
}

const quantile = (values: readonly number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
};

/** The probes' table: p50, p99 and worst of forge-httpd and the git CLI. */
export function probeTable(run: RealHistoryRun): string {
  const row = (p: PairedLatencies): string =>
    `| ${p.label} | ${quantile(p.forge, 0.5).toFixed(1)} | ${quantile(p.forge, 0.99).toFixed(1)} | ${Math.max(...p.forge).toFixed(1)} | ` +
    `${quantile(p.git, 0.5).toFixed(1)} | ${quantile(p.git, 0.99).toFixed(1)} | ${(quantile(p.git, 0.5) / quantile(p.forge, 0.5)).toFixed(2)}× |`;
  return [
    '| probe (idle server, one request at a time) | forge p50 ms | forge p99 ms | forge max ms | git p50 ms | git p99 ms | vs git (p50) |',
    '|---|---:|---:|---:|---:|---:|---:|',
    row(run.oldBlobsFresh),
    row(run.oldBlobs),
    row(run.rootTrees),
    row(run.oldBlobsAfterRestart),
    row(run.commitsAfterRestart),
  ].join('\n');
}

/** The probes' verdicts: root trees p99 < 10 ms; every old file's first blob page < 100 ms. */
export function probeVerdicts(run: RealHistoryRun): Array<{ target: string; pass: boolean; detail: string }> {
  const rootP99 = quantile(run.rootTrees.forge, 0.99);
  const oldMax = Math.max(...run.oldBlobs.forge);
  return [
    { target: `${run.name}: root-tree pages one after another, p99 < 10 ms`, pass: rootP99 < 10, detail: `p99 ${rootP99.toFixed(1)} ms` },
    {
      target: `${run.name}: first blob page of a file untouched for years < 100 ms (settled server)`,
      pass: oldMax < 100,
      detail: `worst of ${run.oldBlobs.forge.length} ${oldMax.toFixed(1)} ms`,
    },
    ...restartVerdicts(run),
  ];
}

/** After a restart over the kept cache: each commit page ≤ 1.5× the git CLI's reads for it; each old file's first blob page < 100 ms. */
function restartVerdicts(run: RealHistoryRun): Array<{ target: string; pass: boolean; detail: string }> {
  const { forge, git } = run.commitsAfterRestart;
  const worst = Math.max(...forge.map((ms, i) => ms / (git[i] ?? NaN)));
  const oldMax = Math.max(...run.oldBlobsAfterRestart.forge);
  return [
    {
      target: `${run.name}: commit pages after a restart, cache kept, each ≤ 1.5× the git CLI's reads`,
      pass: worst <= 1.5,
      detail: `worst ${worst.toFixed(2)}×`,
    },
    {
      target: `${run.name}: first blob page of a file untouched for years after a restart, cache kept, < 100 ms`,
      pass: oldMax < 100,
      detail: `worst of ${run.oldBlobsAfterRestart.forge.length} ${oldMax.toFixed(1)} ms`,
    },
  ];
}
