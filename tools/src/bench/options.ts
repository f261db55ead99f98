import path from 'node:path';

/** Sizes of the generated fixtures; `full` is the issue's target, `small` is for development. */
export interface ScaleSpec {
  readonly name: string;
  /** Commits on the big repository (merges included). */
  readonly commits: number;
  /** Files present at the big repository's head (at least). */
  readonly files: number;
  /** Repositories in the "many repositories" home. */
  readonly repos: number;
  readonly issues: number;
  readonly patches: number;
}

export const SCALES: Readonly<Record<string, ScaleSpec>> = {
  tiny: { name: 'tiny', commits: 300, files: 60, repos: 20, issues: 30, patches: 6 },
  small: { name: 'small', commits: 2_000, files: 200, repos: 100, issues: 200, patches: 40 },
  full: { name: 'full', commits: 50_000, files: 5_000, repos: 10_000, issues: 10_000, patches: 2_000 },
};

/** Everything `run.js` can be told on its command line. */
export interface BenchOptions {
  readonly scale: ScaleSpec;
  /** Seconds per warm wrk run. */
  readonly duration: number;
  readonly concurrencies: readonly number[];
  /** Restarts of forge-httpd per route class for the cold figure (median is reported). */
  readonly coldRuns: number;
  /** Repetitions per git CLI command (first and median are reported). */
  readonly gitRuns: number;
  /** Seconds of mixed load for the RSS soak; 0 = use the short mix only. */
  readonly soak: number;
  readonly cacheDir: string;
  readonly outDir: string;
  readonly skipCgit: boolean;
  readonly skipInstall: boolean;
  /** Only these route classes (empty = all). */
  readonly routes: readonly string[];
  readonly quick: boolean;
  /** Build (or find) the cached homes and stop. */
  readonly prepareOnly: boolean;
  /** Only these phases (`crawl`, `cold`, `real`; empty = every phase). */
  readonly phases: readonly string[];
  /** Distinct pages per page kind and concurrency in the crawl phase. */
  readonly crawlPages: number;
  /** Another built checkout whose server the crawl measures beside this one (before/after). */
  readonly compareWith: string | null;
  /** Crawl: also measure this build started with `--workers N` (null: not). */
  readonly compareWorkers: number | null;
  /** Git repositories whose real histories are imported into bench homes of their own and measured (the real-histories phase). */
  readonly histories: readonly string[];
  /** Real-histories phase: the most seconds to wait for a server to settle between its fresh and settled crawls. */
  readonly settleSeconds: number;
  /** Arguments this build's servers get besides home and address (`--memory-budget`). */
  readonly serverArgs: readonly string[];
}

const USAGE = `usage: node tools/dist/bench/run.js [options]
  --scale tiny|small|full   fixture sizes (default full; develop with small)
  --prepare                 only build the cached node homes, then stop
  --quick                   short runs: 2 s per wrk run, concurrencies 1,16, 1 cold run
  --duration S              seconds per warm wrk run (default 8)
  --concurrency 1,16,64     wrk connection counts (default 1,16,64)
  --cold-runs N             server restarts per route for cold timings (default 3)
  --soak S                  additionally run the mixed load S seconds and sample RSS
  --routes a,b              only these route classes (see README)
  --no-cgit                 skip the cgit baseline
  --no-install              never call apt-get
  --cache DIR               fixture cache (default $FORGE_BENCH_CACHE or bench-results/cache)
  --out DIR                 results root (default bench-results)
  --phases crawl,cold,real  only these phases: the crawl (distinct pages, each once), the cold first reads,
                            the real histories of --history
  --compare-with DIR        crawl and cold: also measure the server built in checkout DIR, same pages
  --compare-workers N       crawl: also measure this build with --workers N, same slices
  --crawl-pages N           pages per page kind and concurrency in the crawl (default 200, small 100)
  --history DIR[,DIR…]      real histories (repeatable): each git repository's HEAD history, imported as fetched
                            into a cached home, crawled fresh and settled against cgit and the git CLI (phase real)
  --settle S                real histories: wait at most S seconds for the server to go idle (default 90)
  --memory-budget MIB       start this build's servers with --memory-budget MIB (default: the server's)`;

/** Parses argv (without node and script) into options; throws with the usage text on error. */
export function parseBenchOptions(argv: readonly string[], root: string): BenchOptions {
  const flags = readFlags(argv);
  const quick = flags.has('quick');
  const scaleName = flags.get('scale') ?? 'full';
  const scale = SCALES[scaleName];
  if (scale === undefined) throw new Error(`unknown --scale ${scaleName}\n${USAGE}`);
  const results = path.resolve(root, flags.get('out') ?? 'bench-results');
  return {
    scale,
    quick,
    prepareOnly: flags.has('prepare'),
    duration: positive(flags.get('duration') ?? (quick ? '2' : '8'), 'duration'),
    concurrencies: (flags.get('concurrency') ?? (quick ? '1,16' : '1,16,64')).split(',').map((c) => positive(c, 'concurrency')),
    coldRuns: positive(flags.get('cold-runs') ?? (quick ? '1' : '3'), 'cold-runs'),
    gitRuns: quick ? 5 : 15,
    soak: Number(flags.get('soak') ?? '0'),
    cacheDir: path.resolve(root, flags.get('cache') ?? process.env['FORGE_BENCH_CACHE'] ?? path.join(results, 'cache')),
    outDir: results,
    skipCgit: flags.has('no-cgit'),
    skipInstall: flags.has('no-install'),
    routes: (flags.get('routes') ?? '').split(',').filter((r) => r !== ''),
    compareWith: flags.has('compare-with') ? path.resolve(flags.get('compare-with') ?? '') : null,
    compareWorkers: flags.has('compare-workers') ? positive(flags.get('compare-workers') ?? '', 'compare-workers') : null,
    histories: (flags.get('history') ?? '')
      .split(',')
      .filter((dir) => dir !== '')
      .map((dir) => path.resolve(dir)),
    settleSeconds: positive(flags.get('settle') ?? '90', 'settle'),
    phases: (flags.get('phases') ?? '').split(',').filter((p) => p !== ''),
    serverArgs: flags.has('memory-budget') ? ['--memory-budget', String(wholeNumber(flags.get('memory-budget') ?? '', 'memory-budget'))] : [],
    crawlPages: positive(flags.get('crawl-pages') ?? (scale.commits >= 20_000 ? '200' : scale.commits >= 2_000 ? '100' : '20'), 'crawl-pages'),
  };
}

function readFlags(argv: readonly string[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--help' || arg === '-h') throw new Error(USAGE);
    if (!arg.startsWith('--')) throw new Error(`unexpected argument ${arg}\n${USAGE}`);
    const [name, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
    const boolean = name === 'quick' || name === 'prepare' || name.startsWith('no-');
    if (boolean) flags.set(name, 'true');
    else {
      const value = inline ?? argv[++i] ?? '';
      // --history may be given more than once: its values add up.
      flags.set(name, name === 'history' && flags.has(name) ? `${flags.get(name) ?? ''},${value}` : value);
    }
  }
  return flags;
}

function wholeNumber(text: string, name: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0 || text.trim() === '') throw new Error(`--${name} must be a whole number\n${USAGE}`);
  return value;
}

function positive(text: string, name: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number\n${USAGE}`);
  return value;
}
