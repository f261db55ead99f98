import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runCommand } from './processes.js';

/** Figures of one wrk run; latencies in milliseconds. */
export interface LoadResult {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly requests: number;
  /** Non-2xx/3xx responses plus socket errors (timeouts included). */
  readonly errors: number;
  /** Socket errors alone: connect, read, write, timeout (a server giving way, not a 4xx). */
  readonly socketErrors: number;
  readonly concurrency: number;
  readonly seconds: number;
}

/** One load run: a base URL, the paths to rotate through, connections and duration. */
export interface LoadSpec {
  readonly baseUrl: string;
  readonly paths: readonly string[];
  readonly concurrency: number;
  readonly seconds: number;
  /** Directory for the generated Lua script. */
  readonly scratchDir: string;
}

let scriptCounter = 0;

/**
 * Runs wrk (one thread: the other core is left to the server under test) rotating through
 * `paths`, with a long timeout so slow answers count in the latency instead of vanishing.
 */
export async function runWrk(spec: LoadSpec): Promise<LoadResult> {
  const script = path.join(spec.scratchDir, `paths-${process.pid}-${scriptCounter++}.lua`);
  await writeFile(script, luaRotation(spec.paths));
  const args = ['-t1', `-c${spec.concurrency}`, `-d${spec.seconds}s`, '--timeout', '30s', '--latency', '-s', script, spec.baseUrl];
  const result = await runCommand('wrk', args);
  const text = result.stdout.toString('utf8');
  if (result.code !== 0) throw new Error(`wrk exited ${result.code}: ${result.stderr || text}`);
  return { ...parseWrkOutput(text), concurrency: spec.concurrency, seconds: spec.seconds };
}

/** A wrk Lua script that cycles through the given request paths. */
function luaRotation(paths: readonly string[]): string {
  const list = paths.map((p) => JSON.stringify(p)).join(',\n  ');
  return `local paths = {\n  ${list}\n}\nlocal i = 0\nrequest = function()\n  i = (i % #paths) + 1\n  return wrk.format("GET", paths[i])\nend\n`;
}

/** Extracts req/s, p50/p99 (ms), request and error counts from wrk's text report. */
function parseWrkOutput(text: string): Omit<LoadResult, 'concurrency' | 'seconds'> {
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1] ?? NaN);
  const requests = Number(/(\d+) requests in/.exec(text)?.[1] ?? 0);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(text)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  const socketErrors = socket === null ? 0 : socket.slice(1).reduce((sum, n) => sum + Number(n), 0);
  return { rps, p50: percentile(text, '50'), p99: percentile(text, '99'), requests, errors: non2xx + socketErrors, socketErrors };
}

function percentile(text: string, which: string): number {
  const match = new RegExp(`^\\s+${which}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm').exec(text);
  if (match?.[1] === undefined) return NaN;
  const scale: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };
  return Number(match[1]) * (scale[match[2] ?? 'ms'] ?? 1);
}
