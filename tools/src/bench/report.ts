/**
 * Turns one run's figures into the printed tables, the target verdicts, results.json and a
 * bar chart (SVG, written by hand: no chart package).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { GitTiming } from './git-baseline.js';
import type { ColdRow, ScaleRow, WarmRow } from './measure.js';
import type { AdversarialResult } from './adversarial-load.js';
import type { CloneLoadResult } from './clone-load.js';
import type { StalledReadersResult } from './stalled-readers.js';
import type { LoadResult } from './wrk.js';
import { crawlVerdicts, type CrawlRow } from './crawl.js';
import { probeVerdicts, type RealHistoryRun } from './real-histories.js';

/** Everything one run measured. */
export interface BenchResults {
  readonly startedAt: string;
  readonly scale: string;
  readonly machine: { cpus: number; node: string };
  readonly warm: WarmRow[];
  readonly cold: ColdRow[];
  readonly git: GitTiming[];
  readonly scaleRows: ScaleRow[];
  readonly saturation: { trivial: LoadResult; heavy: LoadResult } | null;
  /** The trivial route while 4 clones of the big repository run. */
  readonly clones: CloneLoadResult | null;
  /** The trivial route during a flood of distinct URLs and a few hundred slow clients, with RSS. */
  readonly adversarial: { result: AdversarialResult; rss: Array<[number, number]> } | null;
  readonly rss: Array<[number, number]>;
  /** The `--soak` run: mixed load for longer, with its own RSS samples. */
  readonly soak: { load: LoadResult; rss: Array<[number, number]> } | null;
  /** The trivial route while clients stall on big pages, with RSS (run last). */
  readonly stalledReaders: { result: StalledReadersResult; rss: Array<[number, number]> } | null;
  /** The crawl phase: distinct pages each requested once (cache misses), beside cgit and the git CLI. */
  readonly crawl: CrawlRow[] | null;
  /** The same crawl on an imported real history (`--history DIR`). */
  readonly realHistories: readonly RealHistoryRun[];
  readonly notes: string[];
}

/** One target of the issue with its verdict. */
export interface Verdict {
  readonly target: string;
  readonly pass: boolean | null;
  readonly detail: string;
}

const COMMIT_ADDRESSED = ['commit', 'tree', 'blob', 'readme', 'diff'];
const ms = (value: number): string => (Number.isFinite(value) ? value.toFixed(value < 10 ? 2 : 1) : '–');
const ratio = (value: number): string => (Number.isFinite(value) ? `${value.toFixed(2)}×` : '–');

/** The warm table: req/s and latencies of forge-httpd (cache hits) with the ratios to its baselines. */
export function warmTable(rows: readonly WarmRow[]): string {
  const header = '| route | conc | cache | req/s | p50 ms | p99 ms | ceiling req/s | vs ceiling | cgit req/s | vs cgit | cgit p99 ms |';
  const lines = rows.map(
    (r) =>
      `| ${r.route} | ${r.concurrency} | hit | ${r.forge.rps.toFixed(0)} | ${ms(r.forge.p50)} | ${ms(r.forge.p99)} | ${r.ceiling.rps.toFixed(0)} | ` +
      `${ratio(r.forge.rps / r.ceiling.rps)} | ${r.cgit ? r.cgit.rps.toFixed(0) : '–'} | ${r.cgit ? ratio(r.forge.rps / r.cgit.rps) : '–'} | ${r.cgit ? ms(r.cgit.p99) : '–'} |`,
  );
  return [header, '|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|', ...lines].join('\n');
}

/**
 * The cold table: a server's first request (a cache miss) against one git CLI invocation, on a
 * first start (empty cache directory) and after a restart (the cache directory of a server that
 * served before kept); with `--compare-with`, the other checkout's first start beside it.
 */
export function coldTable(cold: readonly ColdRow[], git: readonly GitTiming[]): string {
  const compared = cold.some((c) => c.otherMs !== null);
  const lines = cold.map((c) => {
    const g = git.find((t) => t.route === c.route);
    const other = c.otherMs === null ? ' – | – |' : ` ${ms(c.otherMs)} | ${g ? ratio(c.otherMs / g.median) : '–'} |`;
    return (
      `| ${c.route} | miss | ${ms(c.forgeMs)} | ${ms(c.restartMs)} | ${ms(c.bareHttpMs)} | ${g ? ms(g.first) : '–'} | ${g ? ms(g.median) : '–'} |` +
      ` ${g ? ratio(c.forgeMs / g.median) : '–'} | ${g ? ratio(c.restartMs / g.median) : '–'} |` +
      ` ${g !== undefined && g.pageReads !== null ? `${ms(g.pageReads)} | ${ratio(c.forgeMs / g.pageReads)}` : '– | –'} | ${ms(c.startupMs)} |` +
      (compared ? other : '') +
      ` ${g ? g.command : ''} |`
    );
  });
  const header =
    '| route | cache | first start ms | after restart ms | bare HTTP ms | git first ms | git median ms | first start vs git | after restart vs git |' +
    ' git page reads ms | first start vs page reads | startup ms |' +
    (compared ? ' compared ms | compared vs git |' : '') +
    ' git command |';
  const align = '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|' + (compared ? '---:|---:|' : '') + '---|';
  return [header, align, ...lines].join('\n');
}

/** The scale table: large home against the small one. */
export function scaleTable(rows: readonly ScaleRow[]): string {
  const lines = rows.map(
    (r) =>
      `| ${r.route} | ${r.large.rps.toFixed(0)} | ${ms(r.large.p50)} | ${r.small.rps.toFixed(0)} | ${ms(r.small.p50)} | ${ratio(r.small.rps / r.large.rps)} |`,
  );
  return ['| route | large req/s | large p50 ms | small req/s | small p50 ms | slowdown |', '|---|---:|---:|---:|---:|---:|', ...lines].join('\n');
}

/** Judges every target of the performance issue on this run's figures. */
export function judgeTargets(results: BenchResults): Verdict[] {
  const at16 = results.warm.filter((r) => r.concurrency === Math.max(...results.warm.map((w) => w.concurrency).filter((c) => c <= 16)));
  const addressed = at16.filter((r) => COMMIT_ADDRESSED.includes(r.route));
  const vsCeiling = addressed.map((r) => `${r.route} ${ratio(r.forge.rps / r.ceiling.rps)}`);
  const cgitRows = at16.filter((r) => r.cgit !== null);
  const coldRatios = (of: (row: ColdRow) => number): Array<{ route: string; value: number }> =>
    results.cold.flatMap((c) => {
      const g = results.git.find((t) => t.route === c.route);
      return g ? [{ route: c.route, value: of(c) / g.median }] : [];
    });
  const coldVerdict = (label: string, ratios: ReadonlyArray<{ route: string; value: number }>): Verdict =>
    verdict(label, ratios.length > 0 ? ratios.every((c) => c.value <= 1.5) : null, ratios.map((c) => `${c.route} ${ratio(c.value)}`).join(', '));
  const rssMax = Math.max(0, ...results.rss.map(([, bytes]) => bytes), ...(results.soak?.rss ?? []).map(([, bytes]) => bytes));
  return [
    verdict(
      'warm commit-addressed ≥ 80% of the ceiling',
      addressed.length > 0 ? addressed.every((r) => r.forge.rps >= 0.8 * r.ceiling.rps) : null,
      vsCeiling.join(', '),
    ),
    coldVerdict(
      'cold reads ≤ 1.5× the git CLI after a restart (cache directory kept)',
      coldRatios((c) => c.restartMs),
    ),
    coldVerdict(
      'cold reads ≤ 1.5× the git CLI on a first start (empty cache directory)',
      coldRatios((c) => c.forgeMs),
    ),
    verdict(
      '≥ 5× cgit req/s with lower p99',
      cgitRows.length > 0 ? cgitRows.every((r) => r.cgit !== null && r.forge.rps >= 5 * r.cgit.rps && r.forge.p99 < r.cgit.p99) : null,
      cgitRows.map((r) => `${r.route} ${ratio(r.forge.rps / (r.cgit?.rps ?? NaN))}`).join(', '),
    ),
    ...scaleVerdicts(results.scaleRows),
    verdict(
      'RSS < 300 MB',
      results.rss.length > 0 ? rssMax < 300 * 2 ** 20 : null,
      `max ${(rssMax / 2 ** 20).toFixed(0)} MB; load mix growth ${percent(rssGrowth(results.rss))}`,
    ),
    soakVerdict(results.soak),
    verdict(
      'trivial request p99 < 50 ms under saturation',
      results.saturation ? results.saturation.trivial.p99 < 50 : null,
      results.saturation ? `p99 ${ms(results.saturation.trivial.p99)} ms while heavy routes ran at ${results.saturation.heavy.rps.toFixed(0)} req/s` : '',
    ),
    cloneVerdict(results.clones),
    adversarialVerdict(results.adversarial),
    stalledReadersVerdict(results.stalledReaders),
    ...crawlVerdicts(results.crawl ?? []),
    ...results.realHistories.flatMap((run) => [
      ...crawlVerdicts(run.fresh, `${run.name}, fresh`),
      ...crawlVerdicts(run.settled, `${run.name}, settled`),
      ...probeVerdicts(run),
    ]),
  ];
}

function adversarialVerdict(run: BenchResults['adversarial']): Verdict {
  const target = 'trivial request p99 < 50 ms and RSS < 300 MB during a miss flood and 300 slow clients, no socket errors';
  if (run === null) return verdict(target, null, 'no big repository');
  const { result } = run;
  const rssMax = Math.max(...run.rss.map(([, bytes]) => bytes)) / 2 ** 20;
  const detail = `p99 ${ms(result.trivial.p99)} ms (p50 ${ms(result.trivial.p50)} ms); flood of ${result.distinctUrls} distinct URLs at ${result.flood.rps.toFixed(0)} req/s (${result.flood.socketErrors} socket errors); ${result.slowClients} slow clients, ${result.slowClosed} cut off by the request timeout; RSS max ${rssMax.toFixed(0)} MB`;
  return verdict(target, result.trivial.p99 < 50 && rssMax < 300 && result.flood.socketErrors === 0 && result.trivial.socketErrors === 0, detail);
}

/** RSS growth allowed while the stalled readers hold their connections (unbounded: 2.3 GB for 200). */
const STALLED_READERS_GROWTH_MB = 400;

function stalledReadersVerdict(run: BenchResults['stalledReaders']): Verdict {
  const target = `RSS growth < ${STALLED_READERS_GROWTH_MB} MB and trivial request p99 < 50 ms while clients stall on big pages, each answered 200 or 503`;
  if (run === null) return verdict(target, null, 'no big repository');
  const { result } = run;
  const before = (run.rss[0]?.[1] ?? 0) / 2 ** 20;
  const max = Math.max(0, ...run.rss.map(([, bytes]) => bytes)) / 2 ** 20;
  const statuses = Object.entries(result.statuses)
    .map(([status, count]) => `${count}× ${status}`)
    .join(', ');
  const answeredWell = Object.keys(result.statuses).every((status) => status === '200' || status === '503');
  const detail = `${result.clients} clients (${statuses}); RSS ${before.toFixed(0)} → max ${max.toFixed(0)} MB; p99 ${ms(result.trivial.p99)} ms (p50 ${ms(result.trivial.p50)} ms)`;
  return verdict(target, max - before < STALLED_READERS_GROWTH_MB && result.trivial.p99 < 50 && answeredWell, detail);
}

function cloneVerdict(clones: CloneLoadResult | null): Verdict {
  const detail =
    clones === null
      ? 'no big repository'
      : `p99 ${ms(clones.trivial.p99)} ms (p50 ${ms(clones.trivial.p50)} ms) while ${clones.clones} clones ran: ${clones.completed} done (median ${ms(clones.cloneMedianMs)} ms), ${clones.failed} failed`;
  return verdict(
    'trivial request p99 < 50 ms while 4 clones of the big repository run',
    clones === null ? null : clones.trivial.p99 < 50 && clones.failed === 0,
    detail,
  );
}

function scaleVerdicts(rows: readonly ScaleRow[]): Verdict[] {
  const group = (names: string[], target: string): Verdict => {
    const picked = rows.filter((r) => names.includes(r.route));
    return verdict(
      target,
      picked.length > 0 ? picked.every((r) => r.small.rps / r.large.rps <= 2) : null,
      picked.map((r) => `${r.route} ${ratio(r.small.rps / r.large.rps)}`).join(', '),
    );
  };
  return [
    group(['repos', 'search', 'repo'], 'listings on the large home within 2× of 10 repos'),
    group(['issues', 'patches'], 'issue/patch lists within 2× of a 10-issue repo'),
  ];
}

/**
 * Relative growth of the mean RSS of the last quarter of the samples over the second quarter
 * (the first quarter is skipped: caches fill there). NaN with fewer than 8 samples.
 */
function rssGrowth(samples: ReadonlyArray<[number, number]>): number {
  if (samples.length < 8) return NaN;
  const quarter = Math.floor(samples.length / 4);
  const mean = (part: ReadonlyArray<[number, number]>): number => part.reduce((s, [, b]) => s + b, 0) / part.length;
  return mean(samples.slice(-quarter)) / mean(samples.slice(quarter, 2 * quarter)) - 1;
}

function percent(value: number): string {
  return Number.isFinite(value) ? `${(value * 100).toFixed(1)}%` : 'n/a';
}

function soakVerdict(soak: BenchResults['soak']): Verdict {
  const target = 'RSS not growing over the soak (last quarter ≤ 10% above second quarter)';
  if (soak === null) return verdict(target, null, 'no soak run: add --soak 300');
  const growth = rssGrowth(soak.rss);
  const max = Math.max(0, ...soak.rss.map(([, b]) => b));
  const detail = `growth ${percent(growth)}, max ${(max / 2 ** 20).toFixed(0)} MB over ${soak.load.seconds} s at ${soak.load.rps.toFixed(0)} req/s (${soak.load.errors} errors)`;
  return verdict(target, Number.isFinite(growth) ? growth <= 0.1 : null, detail);
}

function verdict(target: string, pass: boolean | null, detail: string): Verdict {
  return { target, pass, detail };
}

/** Writes results.json, report.md and chart.svg into a new timestamped folder; returns it. */
export async function writeResults(outRoot: string, results: BenchResults, text: string): Promise<string> {
  const dir = path.join(outRoot, results.startedAt.replace(/[:.]/g, '-'));
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'results.json'), JSON.stringify({ ...results, verdicts: judgeTargets(results) }, null, 2));
  await writeFile(path.join(dir, 'report.md'), text);
  await writeFile(path.join(dir, 'chart.svg'), ratioChart(results.warm));
  return dir;
}

/** A horizontal bar chart of forge-httpd's req/s as a fraction of the ceiling, per route. */
function ratioChart(rows: readonly WarmRow[]): string {
  const bars = rows.map((r) => ({ label: `${r.route} c${r.concurrency}`, value: r.forge.rps / r.ceiling.rps }));
  const width = 640;
  const rowHeight = 22;
  const scale = (width - 200) / Math.max(1, ...bars.map((b) => b.value));
  const items = bars.map((b, i) => {
    const y = 30 + i * rowHeight;
    const w = Math.max(1, b.value * scale);
    return `<text x="150" y="${y + 14}" text-anchor="end" font-size="12">${b.label}</text><rect x="160" y="${y}" width="${w.toFixed(1)}" height="16" fill="${b.value >= 0.8 ? '#2a9d8f' : '#e76f51'}"/><text x="${(165 + w).toFixed(1)}" y="${y + 13}" font-size="11">${(b.value * 100).toFixed(0)}%</text>`;
  });
  const height = 40 + bars.length * rowHeight;
  const mark = 160 + 0.8 * scale;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif"><text x="10" y="18" font-size="13">forge-httpd req/s as a share of the HTTP ceiling (warm)</text><line x1="${mark.toFixed(1)}" y1="24" x2="${mark.toFixed(1)}" y2="${height}" stroke="#999" stroke-dasharray="4"/>${items.join('')}</svg>\n`;
}
