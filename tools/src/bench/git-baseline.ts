import { performance } from 'node:perf_hooks';
import { runCommand } from './processes.js';
import type { RouteClass } from './workload.js';

/** Wall time of the git CLI doing a route's read, per invocation (spawn included), in ms. */
export interface GitTiming {
  readonly route: string;
  readonly first: number;
  readonly median: number;
  readonly runs: number;
  readonly command: string;
}

/**
 * Times `git -C <repo> …` for each route class that has a git equivalent: the floor for a
 * cold read, since every git invocation starts from nothing but the OS page cache.
 */
export async function timeGitBaseline(gitDir: string, routes: readonly RouteClass[], runs: number): Promise<GitTiming[]> {
  const timings: GitTiming[] = [];
  for (const route of routes) {
    if (route.git.length === 0) continue;
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const args = route.git[i % route.git.length] ?? [];
      const start = performance.now();
      const result = await runCommand('git', ['-C', gitDir, ...args]);
      times.push(performance.now() - start);
      if (result.code !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr}`);
    }
    const command = `git ${(route.git[0] ?? []).map((a) => (a.length > 24 ? `${a.slice(0, 10)}…` : a)).join(' ')}`;
    timings.push({ route: route.name, first: times[0] ?? NaN, median: median(times), runs, command });
  }
  return timings;
}

/** Median of a non-empty list (NaN for an empty one). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}
