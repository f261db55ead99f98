/**
 * The commits of a range page (`/diff/{base}/{oid}`): the history of `from` in `git rev-list`
 * order, up to (excluding) the first commit equal to `stop`, all of it when `stop` never
 * comes. The near case (a few commits, as a patch or a parent → child diff has) is walked here
 * through the long-lived cat-file process in rev-list's own order (see date-order-queue.ts),
 * so no process is spawned per page; past {@link IN_MEMORY_WALK_LIMIT} commits one `rev-list`
 * (commit-graph) lists the ids of the rest from where the walk stopped (both produce the same
 * order), and the commits themselves are read in chunks as the reader asks for them, so a
 * whole-history range is never held in memory at once.
 */
import { BusyError, InvalidDataError } from '@forge-httpd/identity';
import { DateOrderQueue } from './date-order-queue.js';
import type { GitCommit } from '../format/git-objects.js';
import type { GitRepository } from '../git-repository.js';
import type { Oid } from '../objects/oid.js';
import { Semaphore } from '../limits/semaphore.js';
import { OidList } from '../objects/oid-list.js';
import type { HeldCommitIds } from './held-commit-ids.js';
import type { ChunkedReadOptions, CommitRange } from './commit-range.js';

/** Commits listed by the cat-file walk before rev-list takes over (each read waits for the previous one). */
export const IN_MEMORY_WALK_LIMIT = 256;

const LONG_WALK_SLOTS = 2;

/**
 * Long-range work at once, shared by the repositories of a runtime: the `rev-list` of a walk
 * past {@link IN_MEMORY_WALK_LIMIT} and each chunk of its reads. Ranges are read in chunks so
 * that such a walk does not hold every commit until its page is sent; the slots bound the CPU
 * these walks take from other pages. A short walk never waits.
 * @returns the slots, for one runtime
 */
export function createLongWalkSlots(): Semaphore {
  return new Semaphore(LONG_WALK_SLOTS);
}

/** What bounds a repository's long walks: slots shared by the runtime, and the bound on held ids. */
export interface WalkBounds {
  /** From {@link createLongWalkSlots}. */
  readonly longWalks: Semaphore;
  /** The bound the ids of a long range count against while it is read. */
  readonly heldCommitIds: HeldCommitIds;
}

/**
 * Long walks that may wait for a slot; one more is refused ({@link BusyError}, 503).
 * Unbounded, a flood's queued walks went on for seconds after its clients had left.
 */
const MAX_WAITING_LONG_WALKS = 8;

/** Commits of a long range read per chunk (a few tens of KB of JSON each on a range page). */
export const RANGE_CHUNK_COMMITS = 256;

/** What {@link openCommitRange} reads through. */
export type CommitSource = Pick<GitRepository, 'readCommit' | 'readCommits' | 'listCommitOids'>;

/**
 * Opens the range: walks the near part in memory and, past `limits.near`, lists the ids of the rest
 * with one `rev-list` (a long walk: {@link WalkBounds.longWalks}), so that the range's size and any git
 * failure are known before the first byte of a page is sent.
 * @param git - the repository's commit reads and rev-list
 * @param range - start commit and the commit that ends the list
 * @param near - commits listed through cat-file before rev-list takes over (tests use few)
 * @param bounds - the long-walk slots, and the bound the rest's ids are counted against until
 *   `release` is called
 * @returns the first commits and, for a long range, the ids of the rest (held: call `release`
 *   once they are read or not wanted)
 * @throws InvalidDataError when a commit of the walk cannot be read; BusyError when
 *   too many long walks are under way, or when the rest's ids would pass the held ids' bound
 */
export async function openCommitRange(git: CommitSource, range: { from: Oid; stop: Oid }, near: number, bounds: WalkBounds): Promise<CommitRange> {
  const { longWalks, heldCommitIds } = bounds;
  const walked = await walkNear(git, range, near);
  if (walked.complete) return { first: walked.commits, rest: OidList.EMPTY, release: NOTHING_HELD };
  if (longWalks.pending >= LONG_WALK_SLOTS + MAX_WAITING_LONG_WALKS) throw new BusyError('too many long history walks under way');
  const listed = await longWalks.run(() => git.listCommitOids({ from: range.from, skip: walked.commits.length }));
  const end = listed.indexOf(range.stop);
  const rest = end < 0 ? listed : listed.take(end);
  return { first: walked.commits, rest, release: heldCommitIds.hold(rest) };
}

function NOTHING_HELD(): void {
  // A near range holds no list of ids.
}

/**
 * Lists the history of `from`, newest first in rev-list's default order, up to (excluding)
 * the first commit equal to `stop`.
 * @param git - the repository's commit reads and rev-list walk
 * @param range - start commit and the commit that ends the list
 * @param limit - commits listed through cat-file before rev-list takes over
 * @param bounds - the long-walk slots and the bound the ids of a long range count against
 * @returns the commits before `stop` (all reachable commits when `stop` is never met)
 * @throws InvalidDataError when a commit of the walk cannot be read; BusyError when
 *   too many long walks are under way
 */
export async function walkCommitsUntil(git: CommitSource, range: { from: Oid; stop: Oid }, limit: number, bounds: WalkBounds): Promise<GitCommit[]> {
  const opened = await openCommitRange(git, range, limit, bounds);
  try {
    const commits = [...opened.first];
    for await (const chunk of readInChunks(git, opened.rest, bounds.longWalks)) commits.push(...chunk);
    return commits;
  } finally {
    opened.release();
  }
}

/**
 * Reads `oids` in chunks of `size` commits, each while holding a long-walk slot
 * (the reads are the walk's CPU), none while the reader is busy elsewhere: a slow client
 * holds no slot between chunks.
 * @param git - the repository's commit reads
 * @param oids - commits to read, in the order to yield them
 * @param longWalks - the runtime's long-walk slots ({@link createLongWalkSlots})
 * @param options - commits per chunk; a signal that stops the reads
 * @returns the commits, chunk by chunk, each read when asked for (nothing more once aborted)
 * @throws InvalidDataError (from the iteration) when a listed commit cannot be read
 */
export async function* readInChunks(
  git: Pick<GitRepository, 'readCommits'>,
  oids: OidList,
  longWalks: Semaphore,
  options: ChunkedReadOptions = {},
): AsyncGenerator<readonly GitCommit[]> {
  const { size = RANGE_CHUNK_COMMITS, signal } = options;
  for (let at = 0; at < oids.length; at += size) {
    const chunk = oids.slice(at, at + size);
    const release = await longWalks.acquire();
    let commits: GitCommit[];
    try {
      if (signal?.aborted === true) return;
      commits = existing(chunk, await git.readCommits(chunk));
    } finally {
      release();
    }
    yield commits;
  }
}

/**
 * rev-list's walk (process_parents in git's revision.c) over commits read one by one: pop
 * the newest, list it, queue its parents not seen before. Parents of queued commits are read
 * ahead so that, when the reads go to cat-file, its pipe stays busy.
 * @param git - the repository's commit reads
 * @param range - start commit; the commit that ends the list, if any
 * @param limit - commits listed at most
 * @returns the commits before `stop` (or the first `limit`), and whether the history ended there
 * @throws InvalidDataError when a commit of the walk cannot be read
 */
export async function walkNear(
  git: Pick<GitRepository, 'readCommit'>,
  range: { from: Oid; stop?: Oid },
  limit: number,
): Promise<{ commits: GitCommit[]; complete: boolean }> {
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

/** The commits read for `oids`, each there. */
function existing(oids: readonly Oid[], commits: ReadonlyArray<GitCommit | null>): GitCommit[] {
  return commits.map((commit, index) => readable(oids[index] as Oid, commit));
}

function readable(oid: Oid, commit: GitCommit | null): GitCommit {
  if (commit === null) throw new InvalidDataError('object', `commit ${oid} of the history walk is unreadable`);
  return commit;
}

async function readExisting(git: Pick<GitRepository, 'readCommit'>, oid: Oid): Promise<GitCommit> {
  return readable(oid, await git.readCommit(oid));
}
