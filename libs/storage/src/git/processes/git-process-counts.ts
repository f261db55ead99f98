/**
 * What a git process is for: a long-lived `cat-file --batch-command` reader, a short-lived
 * command (walks, refs, diffs), or a server process (`upload-pack`, `archive`).
 */
export type GitProcessKind = 'cat-file' | 'command' | 'server';

/** Processes of one kind: running now, and started since the process began. */
export interface GitProcessCount {
  readonly running: number;
  readonly spawned: number;
}

/** Counts of every {@link GitProcessKind}. */
export type GitProcessCounts = Readonly<Record<GitProcessKind, GitProcessCount>>;

// Process-wide on purpose (one of the documented exceptions, tools/test/house/module-state.spec.ts):
// these count the children of the operating-system process, like `process.resourceUsage()`, and
// an application exports them as the process's metrics; every runtime in the process adds to them.
const counts: Record<GitProcessKind, { running: number; spawned: number }> = {
  'cat-file': { running: 0, spawned: 0 },
  command: { running: 0, spawned: 0 },
  server: { running: 0, spawned: 0 },
};

/**
 * Counts a git process just spawned until it closes (or fails to start). Process-wide, like
 * the limits the processes run under; plain numbers so an application can export them.
 * @param kind - what the process is for
 * @param child - the spawned process
 */
export function countGitProcess(kind: GitProcessKind, child: { once(event: 'close' | 'error', listener: () => void): unknown }): void {
  const count = counts[kind];
  count.spawned += 1;
  count.running += 1;
  let ended = false;
  const end = (): void => {
    if (ended) return;
    ended = true;
    count.running -= 1;
  };
  child.once('close', end);
  // A process that cannot start emits 'error' and may never emit 'close'.
  child.once('error', end);
}

/**
 * Reads the process-wide git process counters.
 * @returns running and spawned processes by kind (a copy)
 */
export function readGitProcessCounts(): GitProcessCounts {
  return {
    'cat-file': { ...counts['cat-file'] },
    command: { ...counts.command },
    server: { ...counts.server },
  };
}
