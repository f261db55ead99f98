import type { ScratchChange, ScratchCommit } from '@forge-httpd/builder/scratch';

/** How {@link mergedHistory} varies from one test's history to another's. */
export interface MergedHistoryOptions {
  /** Committer time of the first commit (seconds); later ones are counted from it. */
  readonly time: number;
  /** Files of the first commit. */
  readonly initial: readonly ScratchChange[];
  /** The file the clock-skewed commit writes. */
  readonly skewPath: string;
  /** Counter commits after the merge. */
  readonly counters: number;
  /** Every this many counter commits write `deep/er/counter.txt` instead of `counter.txt`. */
  readonly deepEvery: number;
}

/**
 * A history for history-reading pages: a side branch merged back, a commit older than its
 * parent, then counter commits changing files at two depths (the first commits' files stay
 * untouched for the rest of it).
 */
export function mergedHistory(options: MergedHistoryOptions): ScratchCommit[] {
  const T = options.time;
  const commits: ScratchCommit[] = [
    { message: 'Initial import\n', time: T, changes: options.initial },
    { message: 'Side work\n', time: T + 200, changes: [{ path: 'side/a.txt', content: 'side\n' }] },
    { message: 'Main work\n', time: T + 100, parents: [0], changes: [{ path: 'main.txt', content: 'main\n' }] },
    { message: "Merge branch 'side'\n", time: T + 300, parents: [2, 1], changes: [{ path: 'side/a.txt', content: 'side\n' }] },
    { message: 'Clock skew\n', time: T - 5_000, changes: [{ path: options.skewPath, content: 'skew\n' }] },
  ];
  for (let index = 0; index < options.counters; index++) {
    const file = index % options.deepEvery === 0 ? 'deep/er/counter.txt' : 'counter.txt';
    commits.push({ message: `Counter ${index}\n`, time: T + 1_000 + index * 100, changes: [{ path: file, content: `${index}\n` }] });
  }
  return commits;
}
