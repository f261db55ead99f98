/**
 * The last commit touching a path (blob and readme pages' `lastCommit`) answered from memory
 * instead of a path-limited `git rev-list -1 <commit> -- <path>` per page: one repository's
 * {@link CommitChanges}, grown in the background from the commits asked about. A commit not
 * held yet is answered otherwise, and a read of its history (only the part not held:
 * `rev-list <new> ^<held tips>`) starts once that answer is in; from then on every commit of
 * that history answers from memory, whatever the path. Keyed by commit ids, so never stale:
 * a moved branch only adds commits.
 * Indexes of all repositories share one budget; past it the least recently used is dropped.
 */
import { CommitChanges } from './commit-changes.js';
import { IndexBudget, type BudgetedIndex } from './index-budget.js';
import type { Oid } from './oid.js';
import { readCommitChanges } from './read-commit-changes.js';
import { INDEX_SLICE_MS } from './thread-slices.js';

/** Estimated heap bytes of every index together: about 150,000 commits with their changes. */
export const DEFAULT_LAST_COMMIT_BUDGET = 32 * 1024 * 1024;

/** Commits waiting for their history to be read; more are not queued (git answers them). */
const MAX_WANTED = 1024;

/** Tips remembered as exclusions for later reads (older ones are simply read again and skipped). */
const MAX_EXCLUDED_TIPS = 64;

const sharedBudget = new IndexBudget(DEFAULT_LAST_COMMIT_BUDGET);

/** One repository's last-commit-per-path index. */
export class LastCommitIndex implements BudgetedIndex {
  private changes = new CommitChanges();
  /** Commits the held histories were read from, the latest {@link MAX_EXCLUDED_TIPS} (newest last). */
  private tips: Oid[] = [];
  private readonly wanted = new Set<Oid>();
  private running: Promise<void> | null = null;
  /** Set when a history did not fit the budget: git answers for this repository from then on. */
  private tooLarge = false;

  constructor(
    private readonly gitDir: string,
    private readonly budget: IndexBudget = sharedBudget,
  ) {}

  /** Estimated heap bytes held (what the budget counts). */
  get size(): number {
    return this.changes.size;
  }

  /**
   * The newest commit reachable from `from` that changed `path`, as `git rev-list -1 <from>
   * -- <path>` answers; undefined when this index cannot answer yet (the caller asks git,
   * and has the history read with {@link prepare} once its page is answered).
   * @param from - a commit
   * @param path - validated, `/`-separated, not empty (UTF-8)
   */
  lastCommitTouching(from: Oid, path: string): Oid | null | undefined {
    const answer = this.changes.lastCommitTouching(from, Buffer.from(path, 'utf8').toString('latin1'));
    if (answer !== undefined) this.budget.use(this, this.changes.size);
    return answer;
  }

  /** Reads the history of `from` unless held already; resolves when every read asked for so far is done. */
  async prepare(from: Oid): Promise<void> {
    if (!this.changes.has(from)) this.request(from);
    while (this.running !== null) await this.running;
  }

  /** Forgets everything held (budget eviction, repository closed). */
  drop(): void {
    this.changes = new CommitChanges();
    this.tips = [];
    this.budget.release(this);
  }

  private request(tip: Oid): void {
    if (this.tooLarge || this.wanted.size >= MAX_WANTED) return;
    this.wanted.add(tip);
    this.running ??= this.drain().finally(() => {
      this.running = null;
    });
  }

  private async drain(): Promise<void> {
    while (this.wanted.size > 0 && !this.tooLarge) {
      const tips = [...this.wanted].filter((tip) => !this.changes.has(tip));
      this.wanted.clear();
      if (tips.length > 0) await this.read(tips).catch(() => undefined);
    }
  }

  private async read(tips: readonly Oid[]): Promise<void> {
    const changes = this.changes;
    const limit = this.budget.limit - changes.size;
    try {
      const batch = await readCommitChanges(this.gitDir, { tips, exclude: this.tips, limit });
      // Dropped while reading: the batch's parents are gone with the old index.
      const current = (): boolean => changes === this.changes;
      if (!current() || !(await changes.appendInSlices(batch, { sliceMs: INDEX_SLICE_MS, keepGoing: current })) || !current()) return;
      this.tips = [...this.tips, ...tips].slice(-MAX_EXCLUDED_TIPS);
      this.budget.use(this, changes.size);
    } catch (error) {
      if ((error as { code?: unknown }).code === 'COMMIT_CHANGES_OVER_LIMIT') this.tooLarge = true;
      throw error;
    }
  }
}
