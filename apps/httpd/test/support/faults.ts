import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { lstat, readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { JsonResponse } from './http.js';

/** Every file and directory under a node home: `dir`, or size + mtime + SHA-256 of a file. */
export type HomeSnapshot = Map<string, string>;

/**
 * Lists `root` recursively with each file's size, mtime and content hash (sockets and other
 * special files by type only), to prove the server wrote nothing.
 */
export async function snapshotHome(root: string): Promise<HomeSnapshot> {
  const snapshot: HomeSnapshot = new Map();
  const walk = async (dir: string): Promise<void> => {
    for (const name of await readdir(dir)) {
      const path = join(dir, name);
      const stat = await lstat(path);
      const key = relative(root, path);
      if (stat.isDirectory()) {
        snapshot.set(key, 'dir');
        await walk(path);
      } else if (stat.isFile()) {
        const hash = createHash('sha256')
          .update(await readFile(path))
          .digest('hex');
        snapshot.set(key, `${stat.size}:${stat.mtimeMs}:${hash}`);
      } else {
        snapshot.set(key, 'special');
      }
    }
  };
  await walk(root);
  return snapshot;
}

/**
 * Paths that differ between two snapshots (added, removed or changed), leaving out those under
 * `except` (what the test itself changed), sorted.
 */
export function homeChanges(before: HomeSnapshot, after: HomeSnapshot, except: readonly string[] = []): string[] {
  const excluded = (path: string): boolean => except.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
  const changed = new Set<string>();
  for (const [path, value] of before) if (after.get(path) !== value) changed.add(path);
  for (const path of after.keys()) if (!before.has(path)) changed.add(path);
  return [...changed].filter((path) => !excluded(path)).sort();
}

/** Every live process: its parent and its command line's words (walks /proc; Linux only). */
function processTable(): { parents: Map<number, number>; commands: Map<number, string[]> } {
  const parents = new Map<number, number>();
  const commands = new Map<number, string[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Field 4 of /proc/<pid>/stat is the parent pid; the command name (field 2) may hold spaces.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      commands.set(Number(entry), readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0'));
    } catch {
      // The process ended while we looked.
    }
  }
  return { parents, commands };
}

/**
 * Live child and grandchild processes of `parent` whose command line contains every word of `words` (walks
 * /proc; Linux only), e.g. the server's `git cat-file` processes of one repository.
 */
export function childProcesses(words: readonly string[], parent = process.pid): number[] {
  const { parents, commands } = processTable();
  // git runs as a child of the server's spawn helper, itself a child of the server.
  const isOurs = (pid: number): boolean => {
    const ppid = parents.get(pid);
    return ppid === parent || (ppid !== undefined && parents.get(ppid) === parent);
  };
  return [...commands].filter(([pid, argv]) => isOurs(pid) && words.every((word) => argv.some((arg) => arg.includes(word)))).map(([pid]) => pid);
}

/**
 * Live processes at any depth below `root` whose command line (words joined by spaces)
 * contains one of `words`, e.g. a clone's `pack-objects` below its `upload-pack`.
 */
export function descendantProcesses(words: readonly string[], root = process.pid): number[] {
  const { parents, commands } = processTable();
  const below = (pid: number): boolean => {
    for (let up = parents.get(pid); up !== undefined && up > 0; up = parents.get(up)) if (up === root) return true;
    return false;
  };
  return [...commands].filter(([pid, argv]) => below(pid) && words.some((word) => argv.join(' ').includes(word))).map(([pid]) => pid);
}

/** `count` shell loops that each keep a core busy until killed (SIGKILL each when done). */
export function startBusyLoops(count: number): ChildProcess[] {
  return Array.from({ length: count }, () => spawn('sh', ['-c', 'while :; do :; done'], { stdio: 'ignore' }));
}

const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  404: 'Not Found',
  405: 'Method Not Allowed',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** True when a response is our plain JSON error of its status (no detail, no internals). */
export function isPlainError(response: Pick<JsonResponse, 'status' | 'text'>): boolean {
  const reason = REASONS[response.status];
  return reason !== undefined && response.text === JSON.stringify({ error: reason, code: response.status });
}

/** Resolves after `ms` (for letting background work run, never for asserting timings). */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `condition` until it holds (up to 10 s: a bound on recovery, not a timing assertion). */
export async function eventually(condition: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 200; tries += 1) {
    if (await condition()) return;
    await pause(50);
  }
  throw new Error('the condition never held');
}
