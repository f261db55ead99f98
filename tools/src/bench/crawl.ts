/**
 * The crawl phase (issue 14, "the miss path"): N distinct commit, diff, tree, blob, readme and
 * history (a commit list starting at a commit) URLs of one repository (the big generated one, or an imported real history), each requested
 * once (nothing is cached yet: every row is a cache miss), at concurrency 1 and 4, side by side
 * with cgit computing the same pages (its page cache off) and the git CLI doing the same reads
 * with processes spawned per page. Every (page kind, concurrency) gets its own slice of
 * commits, so no run warms another; cgit and the git CLI follow forge-httpd on the same slice.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import type { CgitServer } from './cgit-server.js';
import type { ForgeServer } from './forge-server.js';
import { runChecked } from './processes.js';

/** The page kinds a crawl requests. */
export const CRAWL_KINDS = ['commit', 'diff', 'tree', 'blob', 'readme', 'history'] as const;
export type CrawlKind = (typeof CRAWL_KINDS)[number];

/** One commit of the crawl with what its pages address. */
export interface CrawlCommit {
  readonly commit: string;
  /** First parent (the crawl only picks commits that have one). */
  readonly parent: string;
  /** A file the commit added or changed (exists at `commit`). */
  readonly file: string;
  /** The folder holding `file` ('' = root). */
  readonly dir: string;
}

/** Throughput and latency of one run of N pages. */
export interface CrawlFigures {
  readonly pages: number;
  readonly pagesPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
  /** The first failure's message (null: none), so a run's errors can be told apart. */
  readonly firstError: string | null;
}

/** forge-httpd, cgit and the git CLI on the same slice of commits. */
export interface CrawlRow {
  readonly kind: CrawlKind;
  readonly concurrency: number;
  readonly forge: CrawlFigures;
  readonly git: CrawlFigures;
  /** cgit on the same pages (null: no cgit, or no cgit page for this kind, such as readme). */
  readonly cgit: CrawlFigures | null;
  /** The `--compare-with` server (another checkout) on the same slice, when asked for. */
  readonly other: CrawlFigures | null;
}

/** The servers a crawl requests pages from; cgit serves the crawled repository as `big`. */
export interface CrawlServers {
  readonly forge: ForgeServer;
  readonly other: ForgeServer | null;
  readonly cgit: CgitServer | null;
}

/**
 * Picks `count` distinct non-root commits of `branch`, spread evenly over the history, each
 * with a file it added or changed (merges included when they change a file against their
 * first parent).
 */
export async function pickCrawlCommits(gitDir: string, branch: string, count: number): Promise<CrawlCommit[]> {
  const lines = (await runChecked('git', ['-C', gitDir, 'rev-list', '--parents', branch])).toString('latin1').split('\n');
  const candidates = lines.map((line) => line.split(' ')).filter((fields) => fields.length >= 2 && fields[0]?.length === 40);
  const picked: CrawlCommit[] = [];
  const step = Math.max(1, Math.floor(candidates.length / (count * 1.5)));
  for (let index = 0; index < candidates.length && picked.length < count; index += step) {
    const [commit, parent] = candidates[index] as [string, string];
    const names = (await runChecked('git', ['-C', gitDir, 'diff-tree', '-r', '-z', '--name-status', '--diff-filter=AM', parent, commit]))
      .toString('utf8')
      .split('\0');
    const file = names[1];
    if (file === undefined || file === '') continue;
    const slash = file.lastIndexOf('/');
    picked.push({ commit, parent, file, dir: slash < 0 ? '' : file.slice(0, slash) });
  }
  return picked;
}

/**
 * Runs the crawl: for every page kind and concurrency, forge-httpd and the compared server
 * (alternately first), cgit, then the git CLI on a fresh slice of `perRun` commits.
 */
export async function measureCrawl(
  servers: CrawlServers,
  target: { rid: string; gitDir: string; commits: readonly CrawlCommit[] },
  settings: { perRun: number; concurrencies: readonly number[]; log?: (line: string) => void },
): Promise<CrawlRow[]> {
  const rows: CrawlRow[] = [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: Math.max(...settings.concurrencies) });
  const repo = `/api/v1/repos/${target.rid}`;
  const { forge: server, other, cgit } = servers;
  // Opens the repository (identity, visibility) so the crawl measures page reads, not the first open.
  for (const each of [server, other]) if (each !== null) await httpGet(agent, `${each.baseUrl}${repo}`);
  if (cgit !== null) await httpGet(agent, `${cgit.baseUrl}/big/`);
  let offset = 0;
  try {
    for (const kind of CRAWL_KINDS) {
      for (const concurrency of settings.concurrencies) {
        const slice = target.commits.slice(offset, offset + settings.perRun);
        offset += settings.perRun;
        if (slice.length < settings.perRun) throw new Error(`the crawl needs ${offset} commits, the fixture gave ${target.commits.length}`);
        const pages = (base: string) => async (c: CrawlCommit) => {
          const status = await httpGet(agent, `${base}${repo}${forgePath(kind, c)}`);
          if (status !== 200) throw new Error(`HTTP ${status}`);
        };
        // The compared server crawls first on every other row: whichever goes second finds the
        // slice's objects in the page cache and its git processes' files warm.
        const otherFirst = other !== null && rows.length % 2 === 1;
        const first = otherFirst ? await crawl(slice, concurrency, pages(other.baseUrl)) : null;
        const forge = await crawl(slice, concurrency, pages(server.baseUrl));
        const otherFigures = other === null ? null : (first ?? (await crawl(slice, concurrency, pages(other.baseUrl))));
        const cgitFigures = cgit === null || kind === 'readme' ? null : await crawl(slice, concurrency, cgitPages(agent, cgit.baseUrl, kind));
        const git = await crawl(slice, concurrency, (c) => gitPage(target.gitDir, kind, c));
        const versus =
          (otherFigures === null ? '' : `, compared ${otherFigures.pagesPerSecond.toFixed(0)}/s`) +
          (cgitFigures === null ? '' : `, cgit ${cgitFigures.pagesPerSecond.toFixed(0)}/s`);
        const failed = [forge, git, otherFigures, cgitFigures].map((f) => f?.firstError).find((message) => message != null);
        settings.log?.(
          `[crawl] ${kind} c=${concurrency}: forge ${forge.pagesPerSecond.toFixed(0)}/s${versus}, git ${git.pagesPerSecond.toFixed(0)}/s` +
            (failed === undefined ? '' : ` (errors; first: ${failed})`),
        );
        rows.push({ kind, concurrency, forge, git, cgit: cgitFigures, other: otherFigures });
      }
    }
  } finally {
    agent.destroy();
  }
  return rows;
}

function forgePath(kind: CrawlKind, c: CrawlCommit): string {
  switch (kind) {
    case 'commit':
      return `/commits/${c.commit}`;
    case 'diff':
      return `/diff/${c.parent}/${c.commit}`;
    case 'tree':
      return `/tree/${c.commit}/${urlPath(c.dir)}`;
    case 'blob':
      return `/blob/${c.commit}/${urlPath(c.file)}`;
    case 'readme':
      return `/readme/${c.commit}`;
    case 'history':
      return `/commits?parent=${c.commit}`;
  }
}

/** cgit's page of the same kind (readme has none); a non-200 answer counts as an error. */
function cgitPages(agent: http.Agent, baseUrl: string, kind: Exclude<CrawlKind, 'readme'>): (c: CrawlCommit) => Promise<void> {
  const page = (c: CrawlCommit): string => {
    switch (kind) {
      case 'commit':
        return `/big/commit/?id=${c.commit}`;
      case 'diff':
        return `/big/diff/?id=${c.commit}&id2=${c.parent}`;
      case 'tree':
        return `/big/tree/${urlPath(c.dir)}?id=${c.commit}`;
      case 'blob':
        return `/big/blob/${urlPath(c.file)}?id=${c.commit}`;
      case 'history':
        return `/big/log/?id=${c.commit}`;
    }
  };
  return async (c) => {
    const status = await httpGet(agent, `${baseUrl}${page(c)}`);
    if (status !== 200) throw new Error(`cgit HTTP ${status}`);
  };
}

/** A repository path as URL path segments (real histories have spaces and other characters). */
function urlPath(file: string): string {
  return file.split('/').map(encodeURIComponent).join('/');
}

/** The git CLI's reads of one page, one process per command (also the cold phase's whole-page baseline). */
export async function gitPage(gitDir: string, kind: CrawlKind, c: CrawlCommit): Promise<void> {
  switch (kind) {
    case 'commit':
    case 'diff': {
      // The first-parent patch, merges included (a merge's page shows its change against its
      // first parent; `diff-tree` of a merge alone would print nothing).
      const patch = await gitCommand(gitDir, ['diff-tree', '-p', '--raw', '--no-abbrev', '-M', '-C', c.parent, c.commit]);
      await gitCommand(gitDir, ['cat-file', '--batch'], `${changedBlobs(patch).join('\n')}\n`);
      await gitCommand(gitDir, kind === 'diff' ? ['log', '--format=raw', `${c.parent}..${c.commit}`] : ['cat-file', 'commit', c.commit]);
      return;
    }
    case 'tree':
      await gitCommand(gitDir, ['ls-tree', `${c.commit}:${c.dir}`]);
      return;
    case 'blob':
    case 'readme': {
      const file = kind === 'blob' ? c.file : await readmeName(gitDir, c.commit);
      await gitCommand(gitDir, ['cat-file', '-p', `${c.commit}:${file}`]);
      await gitCommand(gitDir, ['log', '-1', '--format=raw', c.commit, '--', file]);
      return;
    }
    case 'history':
      await gitCommand(gitDir, ['log', '-n', '30', '--format=raw', c.commit]);
      return;
  }
}

/** The readme names the server tries, in its order (apps/httpd/src/blob/blob.service.ts). */
const README_NAMES = ['README', 'README.md', 'README.markdown', 'README.txt', 'README.rst', 'README.org', 'Readme.md'];

/** The readme the server answers for `commit`: the first of its names in the root tree (histories rename theirs). */
async function readmeName(gitDir: string, commit: string): Promise<string> {
  const root = new Set((await gitCommand(gitDir, ['ls-tree', '--name-only', commit])).toString('utf8').split('\n'));
  return [...README_NAMES, ...README_NAMES.map((name) => name.toLowerCase())].find((name) => root.has(name)) ?? 'README.md';
}

/** Blob ids (old and new, not the null id) of the `--raw` lines of a diff-tree output. */
function changedBlobs(output: Buffer): string[] {
  const oids = new Set<string>();
  for (const line of output.toString('latin1').split('\n')) {
    if (!line.startsWith(':')) continue;
    const fields = line.split(' ');
    for (const oid of [fields[2], fields[3]]) if (oid !== undefined && oid.length === 40 && !/^0+$/.test(oid)) oids.add(oid);
  }
  return [...oids];
}

/** Runs git, feeding `input`, and resolves with its stdout (rejects on a non-zero exit). */
export function gitCommand(gitDir: string, args: readonly string[], input?: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['-C', gitDir, ...args], { stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(chunks)) : reject(new Error(`git ${args.join(' ')} exited ${code}`))));
    if (input !== undefined) {
      child.stdin?.on('error', () => undefined);
      child.stdin?.end(input);
    }
  });
}

function httpGet(agent: http.Agent, url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent }, (response) => {
      response.on('data', () => undefined);
      response.on('end', () => resolve(response.statusCode ?? 0));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

/** Requests every item once with `concurrency` workers; latency per page, pages/s over the run. */
async function crawl(items: readonly CrawlCommit[], concurrency: number, page: (c: CrawlCommit) => Promise<void>): Promise<CrawlFigures> {
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | null = null;
  let next = 0;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    for (let index = next++; index < items.length; index = next++) {
      const start = performance.now();
      try {
        await page(items[index] as CrawlCommit);
      } catch (error) {
        errors += 1;
        firstError ??= error instanceof Error ? error.message : String(error);
      }
      latencies.push(performance.now() - start);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  return { pages: items.length, pagesPerSecond: items.length / seconds, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), errors, firstError };
}

function percentile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
}

const ms = (value: number): string => (Number.isFinite(value) ? value.toFixed(value < 10 ? 2 : 1) : '–');

/**
 * The crawl table: every row is a cache miss (each URL requested once), with cgit's and the
 * git CLI's figures on the same pages beside forge-httpd's.
 */
export function crawlTable(rows: readonly CrawlRow[]): string {
  const compared = rows.some((r) => r.other !== null);
  const withCgit = rows.some((r) => r.cgit !== null);
  const header =
    '| page | conc | cache | forge pages/s | forge p50 ms | forge p99 ms |' +
    (withCgit ? ' cgit pages/s | cgit p99 ms | vs cgit |' : '') +
    ' git CLI pages/s | git p99 ms | vs git | errors |' +
    (compared ? ' compared pages/s | compared p99 ms | compared vs git |' : '');
  const lines = rows.map((r) => {
    const errors = r.forge.errors + r.git.errors + (r.other?.errors ?? 0) + (r.cgit?.errors ?? 0);
    const cgit =
      r.cgit === null ? '– | – | – |' : `${r.cgit.pagesPerSecond.toFixed(0)} | ${ms(r.cgit.p99)} | ${times(r.forge.pagesPerSecond / r.cgit.pagesPerSecond)} |`;
    return (
      `| ${r.kind} | ${r.concurrency} | miss | ${r.forge.pagesPerSecond.toFixed(0)} | ${ms(r.forge.p50)} | ${ms(r.forge.p99)} |` +
      (withCgit ? ` ${cgit}` : '') +
      ` ${r.git.pagesPerSecond.toFixed(0)} | ${ms(r.git.p99)} | ${times(r.forge.pagesPerSecond / r.git.pagesPerSecond)} | ${errors} |` +
      (r.other === null ? '' : ` ${r.other.pagesPerSecond.toFixed(0)} | ${ms(r.other.p99)} | ${times(r.other.pagesPerSecond / r.git.pagesPerSecond)} |`)
    );
  });
  const align = '|---|---:|---|---:|---:|---:|' + (withCgit ? '---:|---:|---:|' : '') + '---:|---:|---:|---:|' + (compared ? '---:|---:|---:|' : '');
  return [header, align, ...lines].join('\n');
}

const times = (value: number): string => (Number.isFinite(value) ? `${value.toFixed(2)}×` : '–');

/**
 * One verdict line per page kind: ≥ 2× the git CLI at every concurrency, p99 < 100 ms at c=4;
 * and, when cgit ran, commit pages ≥ 1× cgit at every concurrency.
 * @param label - names the crawled repository in the target (empty for the big one)
 */
export function crawlVerdicts(rows: readonly CrawlRow[], label = ''): Array<{ target: string; pass: boolean; detail: string }> {
  const on = label === '' ? '' : ` (${label})`;
  const commits = rows.filter((r) => r.kind === 'commit' && r.cgit !== null);
  const versusCgit =
    commits.length === 0
      ? []
      : [
          {
            target: `crawl commit${on}: ≥ 1× cgit pages/s`,
            pass: commits.every((r) => r.cgit !== null && r.forge.pagesPerSecond >= r.cgit.pagesPerSecond),
            detail: commits.map((r) => `c=${r.concurrency} ${times(r.forge.pagesPerSecond / (r.cgit?.pagesPerSecond ?? NaN))}`).join(', '),
          },
        ];
  return [...perKindVerdicts(rows, on), ...versusCgit];
}

function perKindVerdicts(rows: readonly CrawlRow[], on: string): Array<{ target: string; pass: boolean; detail: string }> {
  return CRAWL_KINDS.flatMap((kind) => {
    const mine = rows.filter((r) => r.kind === kind);
    if (mine.length === 0) return [];
    const ratios = mine.map((r) => r.forge.pagesPerSecond / r.git.pagesPerSecond);
    const atFour = mine.find((r) => r.concurrency === 4);
    const errors = mine.reduce((sum, r) => sum + r.forge.errors, 0);
    const pass = ratios.every((x) => x >= 2) && (atFour === undefined || atFour.forge.p99 < 100) && errors === 0;
    const detail =
      mine.map((r, i) => `c=${r.concurrency} ${(ratios[i] ?? NaN).toFixed(2)}×`).join(', ') +
      (atFour === undefined ? '' : `, p99 at c=4 ${ms(atFour.forge.p99)} ms`) +
      (errors > 0 ? `, ${errors} errors` : '');
    return [{ target: `crawl ${kind}${on}: ≥ 2× the git CLI per page, p99 < 100 ms at c=4`, pass, detail }];
  });
}
