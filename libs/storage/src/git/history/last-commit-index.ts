/**
 * The last commit touching a path (blob and readme pages' `lastCommit`) answered from memory
 * instead of a path-limited `git rev-list -1 <commit> -- <path>` per page: one repository's
 * {@link CommitChanges}, grown in the background from the commits asked about. A commit not
 * held yet is answered otherwise, and a read of its history (only the part not held:
 * `rev-list <new> ^<held tips>`) starts once that answer is in; from then on every commit of
 * that history answers from memory, whatever the path. Keyed by commit ids, so never stale:
 * a moved branch only adds commits.
 * Indexes of all repositories share one budget; past it the least recently used is dropped.
 * With a {@link LastCommitFile}, a big index is also written to the caller's cache directory
 * and read back from there before anything is read from git (`commit-changes-file.ts`).
 */
import { TooLargeError } from '@forge-httpd/identity';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { decodeCommitChanges, encodeCommitChanges } from './commit-changes-file.js';
import { CommitChanges, commitChangesSize } from './commit-changes.js';
import type { BudgetedIndex, IndexBudget } from '../limits/index-budget.js';
import type { GitTarget } from '../processes/git-processes.js';
import type { Oid } from '../objects/oid.js';
import { readCommitChanges } from './read-commit-changes.js';
import { INDEX_SLICE_MS, runInSlices } from '../limits/thread-slices.js';

/** Estimated heap bytes of every index together: about 400,000 commits with their changes. */
export const DEFAULT_LAST_COMMIT_BUDGET = 32 * 1024 * 1024;

/** Estimated heap bytes one answer may read when the index cannot hold its history: that folder's changes only. */
const FOLDER_READ_LIMIT = 64 * 1024 * 1024;

/** Commits waiting for their history to be read; more are not queued (git answers them). */
const MAX_WANTED = 1024;

/** Tips remembered as exclusions for later reads (older ones are simply read again and skipped). */
const MAX_EXCLUDED_TIPS = 64;

/**
 * Where an index is kept across restarts (commit-changes-file.ts), and from what size: a
 * small history is read again from git in milliseconds, and a node has thousands of them.
 */
export interface LastCommitFile {
  readonly file: string;
  /** Commits an index needs before it is written. */
  readonly minCommits: number;
}

/** Commits an index needs before it is kept across restarts, by default. */
export const DEFAULT_LAST_COMMIT_FILE_MIN_COMMITS = 1000;

/** How long after a history was read its index is written (later reads in that time are written with it). */
const SAVE_DELAY_MS = 2000;

/** One repository's last-commit-per-path index. */
export class LastCommitIndex implements BudgetedIndex {
  private changes = new CommitChanges();
  /** Commits the held histories were read from, the latest {@link MAX_EXCLUDED_TIPS} (newest last). */
  private tips: Oid[] = [];
  private readonly wanted = new Set<Oid>();
  private running: Promise<void> | null = null;
  /** Set when a history did not fit the budget: git answers for this repository from then on. */
  private tooLarge = false;
  /** The kept file's read since the index was last empty (once). */
  private restoring: Promise<void> | null = null;
  /** Commits in the kept file (as far as this process knows), and a write planned. */
  private savedCommits = 0;
  private saveTimer: NodeJS.Timeout | null = null;

  /**
   * @param at - the repository, and the processes its history is read with
   * @param budget - shared with the other repositories' indexes
   * @param kept - where the index is kept across restarts (none: it is not)
   */
  constructor(
    private readonly at: GitTarget,
    private readonly budget: IndexBudget,
    private readonly kept: LastCommitFile | null = null,
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

  /**
   * {@link lastCommitTouching} of every entry of one folder, in one walk of the index. When
   * the history of `from` is not held yet it is read first (and kept); when it cannot be kept
   * (past the budget, or dropped meanwhile), the changes of this folder's entries alone are
   * read for this answer (up to {@link FOLDER_READ_LIMIT}).
   * @param from - a commit
   * @param folder - validated, `/`-separated (UTF-8), `''` for the root
   * @param names - the folder's entry names at `from`
   * @returns each name's commit (null when none touched it), in the order of `names`
   * @throws TooLargeError when even the folder's changes are past their limit; ProcessFailedError
   */
  async lastCommitsUnder(from: Oid, folder: string, names: readonly string[]): Promise<Array<Oid | null>> {
    const bytes = Buffer.from(folder, 'utf8').toString('latin1');
    let answer = this.changes.lastCommitsUnder(from, bytes, names);
    if (answer === undefined) {
      await this.prepare(from);
      answer = this.changes.lastCommitsUnder(from, bytes, names);
    }
    if (answer !== undefined) {
      this.budget.use(this, this.changes.size);
      return answer;
    }
    // Only the changes of this folder's entries: far fewer than every path's (on git/git, the
    // root's entries change ~30 times less often than its paths), read for this answer alone.
    const batch = await readCommitChanges(this.at, { tips: [from], exclude: [], limit: Math.max(this.budget.limit, FOLDER_READ_LIMIT), folder });
    const alone = new CommitChanges();
    await alone.appendInSlices(batch, { sliceMs: INDEX_SLICE_MS });
    return alone.lastCommitsUnder(from, bytes, names) ?? names.map(() => null);
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
    this.restoring = null;
    this.budget.release(this);
  }

  /**
   * Reads the kept file back if nothing is held yet (no git; the start-up pass asks, so a
   * first visitor after a restart finds the index in memory).
   * @returns whether the index holds commits now
   */
  async restoreKept(): Promise<boolean> {
    await this.restoreOnce();
    return this.changes.commits > 0;
  }

  private restoreOnce(): Promise<void> {
    this.restoring ??= this.restore().catch(() => undefined);
    return this.restoring;
  }

  /** Writes a planned save now (e.g. before the process exits); resolves when written. */
  async flush(): Promise<void> {
    if (this.saveTimer === null) return;
    clearTimeout(this.saveTimer);
    this.saveTimer = null;
    await this.save();
  }

  private request(tip: Oid): void {
    if (this.tooLarge || this.wanted.size >= MAX_WANTED) return;
    this.wanted.add(tip);
    this.running ??= this.drain().finally(() => {
      this.running = null;
    });
  }

  private async drain(): Promise<void> {
    await this.restoreOnce();
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
      const batch = await readCommitChanges(this.at, { tips, exclude: this.tips, limit });
      // Dropped while reading: the batch's parents are gone with the old index.
      const current = (): boolean => changes === this.changes;
      if (!current() || !(await changes.appendInSlices(batch, { sliceMs: INDEX_SLICE_MS, keepGoing: current })) || !current()) return;
      this.tips = [...this.tips, ...tips].slice(-MAX_EXCLUDED_TIPS);
      this.budget.use(this, changes.size);
      this.planSave();
    } catch (error) {
      if (error instanceof TooLargeError) this.tooLarge = true;
      throw error;
    }
  }

  /**
   * Takes the kept file's commits when this index holds none yet: a fraction of what reading
   * them from git costs, in slices of this thread. A file that does not
   * check out, or does not fit the budget, is left to be written over.
   */
  private async restore(): Promise<void> {
    if (this.kept === null || this.changes.commits > 0) return;
    const before = this.changes;
    const current = (): boolean => this.changes === before;
    // A file is smaller than the index it holds (~40 bytes a commit against ~64): one
    // larger than the whole budget is not read at all.
    const size = await stat(this.kept.file).then(
      (stats) => stats.size,
      () => null,
    );
    const bytes = size === null || size > this.budget.limit ? null : await readFile(this.kept.file).catch(() => null);
    const stored = bytes === null ? null : (await runInSlices(decodeCommitChanges(bytes), { sliceMs: INDEX_SLICE_MS, keepGoing: current }))?.value;
    if (stored == null || commitChangesSize({ commits: stored.commits, changes: stored.changePaths.length }) > this.budget.limit) return;
    const restored = await CommitChanges.restoreInSlices(stored, { sliceMs: INDEX_SLICE_MS, keepGoing: current });
    if (restored === null || !current() || before.commits > 0) return;
    this.changes = restored;
    this.tips = stored.tips.slice(-MAX_EXCLUDED_TIPS);
    this.savedCommits = restored.commits;
    this.budget.use(this, restored.size);
  }

  private planSave(): void {
    if (this.kept === null || this.saveTimer !== null) return;
    if (this.changes.commits < this.kept.minCommits || this.changes.commits === this.savedCommits) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      this.save().catch(() => undefined);
    }, SAVE_DELAY_MS);
    this.saveTimer.unref();
  }

  /** Writes the index whole, through a file of its own renamed into place (another worker may write it too). */
  private async save(): Promise<void> {
    const kept = this.kept;
    const changes = this.changes;
    if (kept === null || changes.commits < kept.minCommits || changes.commits === this.savedCommits) return;
    const commits = changes.commits;
    this.savedCommits = commits;
    const bytes = (await runInSlices(encodeCommitChanges(changes.snapshot(), this.tips), { sliceMs: INDEX_SLICE_MS }))?.value;
    if (bytes === undefined) return;
    const temporary = `${kept.file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await mkdir(path.dirname(kept.file), { recursive: true, mode: 0o700 });
      await writeFile(temporary, bytes, { mode: 0o600 });
      await rename(temporary, kept.file);
    } catch (error) {
      this.savedCommits = 0;
      await rm(temporary, { force: true });
      throw error;
    }
  }
}
