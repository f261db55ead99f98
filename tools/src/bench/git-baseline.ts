import { performance } from 'node:perf_hooks';
import { type CrawlKind, gitPage } from './crawl.js';
import type { GitSample } from './git-fixture.js';
import { runCommand } from './processes.js';
import type { RouteClass } from './workload.js';

/** Wall time of the git CLI doing a route's read, per invocation (spawn included), in ms. */
export interface GitTiming {
  readonly route: string;
  readonly first: number;
  readonly median: number;
  readonly runs: number;
  readonly command: string;
  /**
   * Median ms of the git CLI doing every read the page needs, one process per command, as the
   * crawl's git baseline does (blob: `cat-file` and `log -1 -- <path>`); null for routes
   * without one. Context for the cold rows: the target is judged on the one command above.
   */
  readonly pageReads: number | null;
}

/** The crawl's page kind for each route class the cold phase also times as whole-page reads. */
const PAGE_KINDS: Readonly<Record<string, CrawlKind>> = { commits: 'history', commit: 'commit', diff: 'diff', tree: 'tree', blob: 'blob', readme: 'readme' };

/**
 * Times `git -C <repo> …` for each route class that has a git equivalent: the floor for a
 * cold read, since every git invocation starts from nothing but the OS page cache.
 */
export async function timeGitBaseline(gitDir: string, routes: readonly RouteClass[], runs: number, samples: readonly GitSample[]): Promise<GitTiming[]> {
  const timings: GitTiming[] = [];
  for (const route of routes) {
    if (route.git.length === 0) continue;
    const kind = PAGE_KINDS[route.name];
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const args = route.git[i % route.git.length] ?? [];
      const start = performance.now();
      const result = await runCommand('git', ['-C', gitDir, ...args]);
      times.push(performance.now() - start);
      if (result.code !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr}`);
    }
    const command = `git ${(route.git[0] ?? []).map((a) => (a.length > 24 ? `${a.slice(0, 10)}…` : a)).join(' ')}`;
    const pageReads = kind === undefined || samples.length === 0 ? null : await timePageReads(gitDir, kind, samples, runs);
    timings.push({ route: route.name, first: times[0] ?? NaN, median: median(times), runs, command, pageReads });
  }
  return timings;
}

/** Median ms of the page's git reads over `runs`, the i-th run on the i-th sample as the cold phase asks. */
async function timePageReads(gitDir: string, kind: CrawlKind, samples: readonly GitSample[], runs: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const sample = samples[i % samples.length] as GitSample;
    const start = performance.now();
    await gitPage(gitDir, kind, { commit: sample.commit, parent: sample.base, file: sample.file, dir: sample.dir });
    times.push(performance.now() - start);
  }
  return median(times);
}

/** Median of a non-empty list (NaN for an empty one). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}
