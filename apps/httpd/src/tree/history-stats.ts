import { BoundedCache } from '@forge-httpd/bounded-cache';
import type { GitRepository, Oid } from '@forge-httpd/storage';
import type { HistoryStats } from '../git-content/git-content-cache.js';
import { type KeptHistory, readKeptHistories, writeKeptHistories } from './history-stats-file.js';

/** Repositories whose last counted history is kept (its distinct authors, for the next count). */
const KEPT_REPOSITORIES = 256;
/** Authors kept over all repositories (each ~50 bytes in memory and in the file). */
const KEPT_AUTHORS = 65_536;
/** Authors of one history kept at most: a project with more counts its next head in full. */
const MAX_KEPT_AUTHORS = 4_096;
/** How long a newly counted history waits before the file is written (more may follow). */
const SAVE_DELAY_MS = 2_000;

/** A history counted in full or from the one before: its head, commits and distinct authors. */
interface CountedHistory {
  readonly head: Oid;
  readonly commits: number;
  readonly authors: ReadonlySet<string>;
}

/**
 * Commit and contributor counts of the history reachable from a commit (stats/tree). Distinct
 * authors need every commit's text: ~0.2 s of git's time on a history of 50,000 commits. Per
 * repository the last counted history is kept with its authors: asked again for that head (a
 * restart, with `file` in the cache directory) it answers at once; asked for a head that
 * descends from it (a push), only the new commits are read (`rev-list <new> ^<old>`) and their
 * authors added. The commit count of a new head comes from the commit-graph either way.
 */
export class HistoryStatsCounter {
  private readonly lastCounted = new BoundedCache<string, CountedHistory>({
    maxEntries: KEPT_REPOSITORIES,
    maxWeight: KEPT_AUTHORS,
    weigh: (history) => history.authors.size + 1,
  });
  private saveTimer: NodeJS.Timeout | undefined;

  /** @param file - where counted histories are kept across restarts (null: only in memory) */
  constructor(private readonly file: string | null = null) {
    for (const kept of file === null ? [] : readKeptHistories(file)) {
      if (kept.authors.length > MAX_KEPT_AUTHORS) continue;
      this.lastCounted.set(kept.repository, { head: kept.head, commits: kept.commits, authors: new Set(kept.authors) });
    }
  }

  /**
   * @param repository - the repository's RID (the key its history is kept under)
   * @param git - the repository, which holds `head`
   */
  async count(repository: string, git: GitRepository, head: Oid): Promise<HistoryStats> {
    const before = this.lastCounted.get(repository);
    if (before?.head === head) return { commits: before.commits, contributors: before.authors.size };
    // Only a history contained in the new one can be added to; a kept head the repository no
    // longer holds (rewritten and collected) cannot be checked and is not used.
    const base = before !== undefined && (await git.isAncestor(before.head, head).catch(() => false)) ? before : undefined;
    const [commits, found] = await Promise.all([git.countCommits(head), git.listContributors(head, { exclude: base === undefined ? [] : [base.head] })]);
    const authors = new Set(base?.authors);
    for (const { name, email } of found) authors.add(`${name}\0${email}`);
    if (authors.size <= MAX_KEPT_AUTHORS) this.lastCounted.set(repository, { head, commits, authors });
    else this.lastCounted.delete(repository);
    this.saveLater();
    return { commits, contributors: authors.size };
  }

  /** Writes what is not written yet (at shutdown). */
  flush(): void {
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    if (this.file === null) return;
    const histories: KeptHistory[] = [];
    for (const [repository, { head, commits, authors }] of this.lastCounted.list()) histories.push({ repository, head, commits, authors: [...authors] });
    try {
      writeKeptHistories(this.file, histories);
    } catch {
      // A cache directory that cannot be written: the next start counts in full, as without one.
    }
  }

  private saveLater(): void {
    if (this.file === null || this.saveTimer !== undefined) return;
    this.saveTimer = setTimeout(() => this.flush(), SAVE_DELAY_MS).unref();
  }
}
