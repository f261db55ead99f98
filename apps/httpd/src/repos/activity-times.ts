import type { Rid } from '@forge-httpd/identity';
import { type HeadCommitTime, type NodeHome, readHeadCommitTime, readHeadCommitTimeFromFiles, type RepositorySummary } from '@forge-httpd/storage';

/** How long head times are trusted before a refresh starts (ms): pushes show within this. */
const ACTIVITY_REFRESH_MS = 2000;
/** A refresh reads files for at most this long before yielding to requests (ms). */
const SLICE_MS = 8;
/** Heads that only git can read are resolved this many at a time. */
const GIT_READS_AT_ONCE = 4;

/**
 * The head commit time of every indexed repository, for `/repos?sort=activity`. Times come from
 * the repositories' files (a HEAD, a ref and a loose commit, and only the two ref files when
 * the head did not move); heads that only git can read (packed objects) are read through
 * git in the background, a few at a time. A refresh runs at most every
 * {@link ACTIVITY_REFRESH_MS}, in short slices, while requests keep using the last times: the
 * ordering stays a memoised sort, like `sort=rid`.
 */
export class ActivityTimes {
  private readonly times = new Map<Rid, HeadCommitTime | null>();
  private refreshedAt = Number.NEGATIVE_INFINITY;
  private refreshing: Promise<void> | null = null;
  private readonly gitQueue = new Set<Rid>();
  private gitReads = 0;
  /** Wakes a paced refresh (see {@link readAhead}) that waits for its pace. */
  private hurry: (() => void) | null = null;
  /** Set once a request waited for the first refresh: a paced refresh goes on at full speed. */
  private hurried = false;
  /** Increases whenever a time changed: orderings computed at one generation may be reused. */
  generation = 0;

  constructor(
    private readonly home: NodeHome,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * Makes the times current enough: the first call waits for a full read of the files, later
   * ones start a refresh in the background when the last is older than {@link ACTIVITY_REFRESH_MS}.
   */
  async settle(summaries: readonly RepositorySummary[]): Promise<void> {
    const stale = this.now() - this.refreshedAt > ACTIVITY_REFRESH_MS;
    if (stale && this.refreshing === null) {
      this.refreshing = this.refresh(summaries).finally(() => {
        this.refreshing = null;
      });
    }
    if (this.refreshedAt === Number.NEGATIVE_INFINITY && this.refreshing !== null) {
      this.hurried = true;
      this.hurry?.();
      await this.refreshing;
    }
  }

  /**
   * Reads every head time before anyone asks (a first listing by activity of many
   * repositories waited long for it), stepping to each next slice only when `pace`
   * allows; a request that needs the times meanwhile makes it go on at full speed. Nothing
   * when times were read already or a refresh runs.
   * @returns the number of repositories read, 0 when nothing was done
   */
  async readAhead(summaries: readonly RepositorySummary[], pace: () => Promise<void>): Promise<number> {
    if (this.refreshedAt !== Number.NEGATIVE_INFINITY || this.refreshing !== null) return 0;
    this.refreshing = this.refresh(summaries, pace).finally(() => {
      this.refreshing = null;
    });
    await this.refreshing;
    return summaries.length;
  }

  /** The head commit time of `rid` in seconds; null when unknown or the repository has no head. */
  time(rid: Rid): number | null {
    return this.times.get(rid)?.time ?? null;
  }

  private async refresh(summaries: readonly RepositorySummary[], pace?: () => Promise<void>): Promise<void> {
    const started = this.now();
    let sliceStart = started;
    for (const summary of summaries) {
      if (this.now() - sliceStart > SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        if (pace !== undefined && !this.hurried) await this.paced(pace);
        sliceStart = this.now();
      }
      this.readFromFiles(summary.rid);
    }
    // Only a changed time moves the generation (set): an idle refresh keeps the sorted listing.
    this.refreshedAt = started;
  }

  /** Waits for `pace`, or until a request needs the times ({@link settle}). */
  private async paced(pace: () => Promise<void>): Promise<void> {
    await Promise.race([pace(), new Promise<void>((resolve) => (this.hurry = resolve))]);
    this.hurry = null;
  }

  private readFromFiles(rid: Rid): void {
    const previous = this.times.get(rid) ?? undefined;
    const current = readHeadCommitTimeFromFiles(this.home.storage.gitDirOf(rid), this.home.runtime, previous);
    if (current === undefined) {
      this.enqueueGitRead(rid);
      return;
    }
    if (current !== previous) this.set(rid, current);
  }

  private set(rid: Rid, value: HeadCommitTime | null): void {
    if (this.times.get(rid)?.time === value?.time && this.times.has(rid)) {
      this.times.set(rid, value);
      return;
    }
    this.times.set(rid, value);
    this.generation += 1;
  }

  private enqueueGitRead(rid: Rid): void {
    this.gitQueue.add(rid);
    this.drainGitQueue();
  }

  private drainGitQueue(): void {
    for (const rid of this.gitQueue) {
      if (this.gitReads >= GIT_READS_AT_ONCE) return;
      this.gitQueue.delete(rid);
      this.gitReads += 1;
      void this.readThroughGit(rid).finally(() => {
        this.gitReads -= 1;
        this.drainGitQueue();
      });
    }
  }

  private async readThroughGit(rid: Rid): Promise<void> {
    // Not kept open when the bound is reached: a pass over every repository must not push out
    // the ones visitors use.
    const time = await this.home.storage
      .withRepository(rid, async (repository) => (repository === null ? null : readHeadCommitTime(repository)))
      .catch(() => null);
    this.set(rid, time);
  }
}
