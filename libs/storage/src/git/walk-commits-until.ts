/**
 * The commits of a range page (`/diff/{base}/{oid}`): the history of `from` in `git rev-list`
 * order, up to (excluding) the first commit equal to `stop`, all of it when `stop` never
 * comes. The near case (a few commits, as a patch or a parent → child diff has) is walked here
 * through the long-lived cat-file process in rev-list's own order (see date-order-queue.ts),
 * so no process is spawned per page; past {@link IN_MEMORY_WALK_LIMIT} commits the walk goes on
 * with `rev-list` (commit-graph) in doubling chunks from where it stopped: both produce the
 * same order, so the list is the same either way.
 */
import { DateOrderQueue } from './date-order-queue.js';
import { GitObjectFormatError, RangeWalkBusyError } from './errors.js';
import type { GitCommit } from './git-objects.js';
import type { GitRepository } from './git-repository.js';
import type { Oid } from './oid.js';
import { Semaphore } from './semaphore.js';

/** Commits listed by the cat-file walk before rev-list takes over (each read waits for the previous one). */
export const IN_MEMORY_WALK_LIMIT = 256;

const LONG_WALK_SLOTS = 2;

/**
 * Walks past {@link IN_MEMORY_WALK_LIMIT} at once, process-wide. Such a walk holds every commit
 * it lists until its page is sent: a range whose `stop` is not in the history lists all of it
 * (measured: 50,000 commits, a 16 MB answer; 32 such pages at once took the server past 1 GB).
 * The others wait; a short walk never does.
 */
export const longWalks = new Semaphore(LONG_WALK_SLOTS);

/**
 * Long walks that may wait for a slot; one more is refused ({@link RangeWalkBusyError}, 503).
 * Unbounded, a flood's queued walks went on for seconds after its clients had left.
 */
export const MAX_WAITING_LONG_WALKS = 8;

/** What {@link walkCommitsUntil} reads through. */
export type CommitSource = Pick<GitRepository, 'readCommit' | 'walkCommits'>;

/**
 * Lists the history of `from`, newest first in rev-list's default order, up to (excluding)
 * the first commit equal to `stop`.
 * @param git - the repository's commit reads and rev-list walk
 * @param range - start commit and the commit that ends the list
 * @param limit - commits listed through cat-file before rev-list takes over
 * @returns the commits before `stop` (all reachable commits when `stop` is never met)
 * @throws GitObjectFormatError when a commit of the walk cannot be read; RangeWalkBusyError when
 *   too many long walks are under way
 */
export async function walkCommitsUntil(git: CommitSource, range: { from: Oid; stop: Oid }, limit = IN_MEMORY_WALK_LIMIT): Promise<GitCommit[]> {
  const walked = await walkNear(git, range, limit);
  if (walked.complete) return walked.commits;
  if (longWalks.pending >= LONG_WALK_SLOTS + MAX_WAITING_LONG_WALKS) throw new RangeWalkBusyError();
  return longWalks.run(() => walkOn(git, range, walked.commits));
}

/** Lists on with rev-list in doubling chunks from where the cat-file walk stopped. */
async function walkOn(git: CommitSource, range: { from: Oid; stop: Oid }, found: GitCommit[]): Promise<GitCommit[]> {
  for (let chunk = 64; ; chunk *= 2) {
    const page = await git.walkCommits({ from: range.from, skip: found.length, maxCount: chunk });
    for (const commit of page) {
      if (commit.oid === range.stop) return found;
      found.push(commit);
    }
    if (page.length < chunk) return found;
  }
}

/**
 * rev-list's walk (process_parents in git's revision.c) over commits read one by one: pop
 * the newest, list it, queue its parents not seen before. Parents of queued commits are read
 * ahead so the pipe to cat-file stays busy.
 */
async function walkNear(git: CommitSource, range: { from: Oid; stop: Oid }, limit: number): Promise<{ commits: GitCommit[]; complete: boolean }> {
  const reads = new Map<Oid, Promise<GitCommit>>();
  const read = (oid: Oid): Promise<GitCommit> => {
    let pending = reads.get(oid);
    if (pending === undefined) {
      pending = readExisting(git, oid);
      // Read-ahead of a commit the walk may never reach must not become an unhandled rejection.
      pending.catch(() => undefined);
      reads.set(oid, pending);
    }
    return pending;
  };
  const queue = new DateOrderQueue<GitCommit>();
  const seen = new Set<Oid>([range.from]);
  const enqueue = (commit: GitCommit): void => {
    queue.push(commit, commit.committer.time);
    for (const parent of commit.parents) void read(parent);
  };
  enqueue(await read(range.from));
  const commits: GitCommit[] = [];
  for (let commit = queue.pop(); commit !== undefined; commit = queue.pop()) {
    if (commit.oid === range.stop) return { commits, complete: true };
    if (commits.length === limit) return { commits, complete: false };
    commits.push(commit);
    for (const parent of commit.parents) {
      if (seen.has(parent)) continue;
      seen.add(parent);
      enqueue(await read(parent));
    }
  }
  return { commits, complete: true };
}

async function readExisting(git: CommitSource, oid: Oid): Promise<GitCommit> {
  const commit = await git.readCommit(oid);
  if (commit === null) throw new GitObjectFormatError(`commit ${oid} of the history walk is unreadable`);
  return commit;
}
