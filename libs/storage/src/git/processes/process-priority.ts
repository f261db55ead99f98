import { setPriority } from 'node:os';
import type { GitChildProcess } from './git-child-process.js';

/** Below the server's own priority: background and server-side git yields the CPU to requests. */
export const BACKGROUND_NICENESS = 10;

/**
 * Lowers a git process's CPU priority to {@link BACKGROUND_NICENESS} as soon as it runs
 * (through the spawn helper its pid is known a moment after the spawn call).
 * @param child - the process just started
 */
export function runInBackground(child: GitChildProcess): void {
  if (child.pid !== undefined) lower(child.pid);
  else child.once('spawn', () => lower(child.pid as number));
}

function lower(pid: number): void {
  try {
    setPriority(pid, BACKGROUND_NICENESS);
  } catch {
    // Not permitted on some systems, or already exited: it runs at normal priority then.
  }
}
