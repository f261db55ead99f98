import { TooLargeError } from '@forge-httpd/identity';
import { Injectable, type StreamableFile } from '@nestjs/common';
import type { Activity, Commit, CommitCountStats, CommitDetail, RangeDiffResponse, RangeDiffStats } from '@forge-httpd/api-types';
import { type GitCommit, type GitRepository, type Oid, RANGE_CHUNK_COMMITS, type ReadOptions, type WalkCommitsOptions } from '@forge-httpd/storage';
import { GitContentCache } from '../git-content/git-content-cache.js';
import { GitContentService, type LoadedDiff } from '../git-content/git-content.service.js';
import { toCommit } from '../git-content/commit.mapper.js';
import { toDiff, toDiffFiles } from '../git-content/diff.mapper.js';
import { RepositoryAccess } from '../repository-access/repository-access.service.js';
import { parseNumstat } from '@forge-httpd/diff';
import { timesInActivityWindow } from './activity.js';
import { streamedJson, streamedJsonArray } from '../platform/streamed-json.js';

/** Query of `GET /repos/{rid}/commits`. */
export interface CommitsQuery {
  parent?: Oid;
  since?: number;
  until?: number;
  page?: number;
  perPage?: number;
  /** Only commits that `git rev-list {head} -- {path}` names. */
  path?: string;
  /** Only commits whose author name or email holds this, case-insensitively. */
  author?: string;
  /** Only commits whose message holds this, case-insensitively. */
  q?: string;
}

/** Bytes of numstat output read for diff stats: ~100 bytes per file, so about 300,000 files. */
const NUMSTAT_MAX_BYTES = 32 * 1024 * 1024;

/** Default page size of the commit list (docs/api.md "Limits"). */
const DEFAULT_COMMITS_PER_PAGE = 30;

/** A read the walk that follows repeats (`ReadOptions.sequential`). */
const WALK_STEP: ReadOptions = { sequential: true };

/** History, single commits, ranges and activity (docs/api.md 9–12). */
@Injectable()
export class CommitsService {
  constructor(
    private readonly access: RepositoryAccess,
    private readonly content: GitContentService,
    private readonly cache: GitContentCache,
  ) {}

  /** `GET /commits` (docs/radicle-httpd.md §5.9): newest first from `parent` or the head, filtered, paginated. */
  async listCommits(ridText: string, query: CommitsQuery): Promise<Commit[] | StreamableFile> {
    const repository = await this.access.openPublic(ridText);
    // The head is resolved even when `parent` is given (docs/radicle-httpd.md §5.9): an unresolvable head fails.
    const head = await repository.head();
    // The walk's first step, read here as the walk reads it (in process, no round trip to cat-file).
    if (query.parent !== undefined) await this.content.requireCommit(repository.git, query.parent, WALK_STEP);
    const window = pageWindow(query);
    if (window === null) return [];
    const walk = { from: query.parent ?? head.oid, since: query.since, until: query.until, ...filters(query), ...window };
    if (window.maxCount !== undefined) return (await repository.git.walkCommits(walk)).map(toCommit);
    // since/until without perPage: every match, up to the whole history; past one chunk it is
    // written as it is read, like a long range.
    const oids = await repository.git.listCommitOids(walk);
    if (oids.length > RANGE_CHUNK_COMMITS) {
      const release = repository.git.holdCommitIds(oids);
      return streamedJsonArray((signal) => commitChunks([], repository.git.readCommitsInChunks(oids, { signal })), release);
    }
    const commits: Commit[] = [];
    for await (const chunk of repository.git.readCommitsInChunks(oids)) commits.push(...chunk.map(toCommit));
    return commits;
  }

  /** `GET /commits/{sha}` (docs/radicle-httpd.md §5.10): the commit, its diff against the first parent, its branches. */
  async getCommit(ridText: string, sha: Oid): Promise<CommitDetail> {
    const { git } = await this.access.openPublic(ridText);
    const commit = await this.content.requireCommit(git, sha);
    // A repository's first page reads its commit-graph for the branches, so it runs beside the diff.
    const [diff, branches] = await this.diffBeside(git, { from: commit.parents[0] ?? null, to: sha }, () => branchesContaining(git, sha));
    return { commit: toCommit(commit), diff: toDiff(diff.files, 'typeFirst'), files: toDiffFiles(diff.blobs), branches };
  }

  /** `GET /diff/{base}/{oid}` (docs/radicle-httpd.md §5.11): tree diff and the commits from `oid` back to `base`. */
  async getRange(ridText: string, range: { base: Oid; oid: Oid }): Promise<RangeDiffResponse | StreamableFile> {
    const { git } = await this.access.openPublic(ridText);
    await Promise.all([this.content.requireCommit(git, range.base), this.content.requireCommit(git, range.oid)]);
    // The range's first commits are walked in process, beside the diff.
    const [diff, commits] = await this.diffBeside(
      git,
      { from: range.base, to: range.oid },
      () => git.openCommitRange({ from: range.oid, stop: range.base }),
      (opened) => opened.release(),
    );
    const { first, rest, release } = commits;
    try {
      const head = { diff: toDiff(diff.files, 'typeLast'), files: toDiffFiles(diff.blobs) };
      if (rest.length === 0) {
        release();
        return { ...head, commits: first.map(toCommit) };
      }
      // A base outside the history lists all of it (megabytes on a big history): written as it is
      // read; the ids of the rest are let go when the answer ends.
      return streamedJson({ head, listKey: 'commits', items: (signal) => commitChunks(first, git.readCommitsInChunks(rest, { signal })), onEnd: release });
    } catch (error) {
      release();
      throw error;
    }
  }

  /**
   * A page's diff, and `work` of its own on this thread started once the diff needs no more
   * turns of the event loop (or once the diff settled, when it went to a process of its own).
   * A repository's first diff starts its diff process, which takes turns of the event loop (the
   * spawn helper's connections): work started at once held git back until it was done; started
   * after, it runs while git computes. With the process running, the work starts at once.
   * When the diff fails, the work's outcome is handed to `abandon` once it is there (what it
   * holds is let go).
   */
  private diffBeside<T>(
    git: GitRepository,
    range: { from: Oid | null; to: Oid },
    work: () => Promise<T>,
    abandon: (outcome: T) => void = ignore,
  ): Promise<[LoadedDiff, T]> {
    let queued: () => void = () => undefined;
    const diffQueued = new Promise<void>((resolve) => (queued = resolve));
    const diffRead = this.content.loadDiff(git, range, () => queued());
    const workDone = Promise.race([diffQueued, diffRead.then(ignore, ignore)]).then(work);
    return Promise.all([diffRead, workDone]).catch((error: unknown) => {
      workDone.then(abandon, ignore);
      throw error;
    });
  }

  /** `GET /diff/{base}/{oid}/stats` (radicle-httpd 0.26): files changed, lines inserted and deleted. */
  async getRangeStats(ridText: string, range: { base: Oid; oid: Oid }): Promise<RangeDiffStats> {
    const { git } = await this.access.openPublic(ridText);
    await Promise.all([this.content.requireCommit(git, range.base), this.content.requireCommit(git, range.oid)]);
    // The same pairing as the diff pages (`-M -C`), as `git diff --numstat` sums it.
    const { patch, truncated } = await git.diffNumstat({ from: range.base, to: range.oid, maxBytes: NUMSTAT_MAX_BYTES });
    if (truncated) throw new TooLargeError('diff has too many files to count');
    const records = parseNumstat(patch);
    return {
      filesChanged: records.length,
      insertions: records.reduce((sum, record) => sum + (record.stats?.additions ?? 0), 0),
      deletions: records.reduce((sum, record) => sum + (record.stats?.deletions ?? 0), 0),
    };
  }

  /** `GET /stats/commits/{sha}` (radicle-httpd 0.26): commits reachable from `sha`, itself included. */
  async getCommitCount(ridText: string, sha: Oid): Promise<CommitCountStats> {
    const { git } = await this.access.openPublic(ridText);
    await this.content.requireCommit(git, sha);
    return { commits: await git.countCommits(sha) };
  }

  /** `GET /activity` (docs/radicle-httpd.md §5.12): committer times of the last 52 weeks; the history is read once per head. */
  async getActivity(ridText: string): Promise<Activity> {
    const repository = await this.access.openPublic(ridText);
    const head = await repository.head();
    const times = await this.cache.commitTimes.getOrLoad(head.oid, () => repository.git.commitTimes(head.oid, Number.NEGATIVE_INFINITY));
    return { activity: timesInActivityWindow(times, Math.floor(Date.now() / 1000)) };
  }
}

/**
 * skip/maxCount of a page (docs/radicle-httpd.md §2.4, §5.9): perPage defaults to 30, or to no limit when
 * `since`/`until` is given (then only page 0 has items); null when the page is empty.
 */
function pageWindow(query: CommitsQuery): { skip: number; maxCount?: number } | null {
  const page = query.page ?? 0;
  if (query.perPage === undefined && (query.since !== undefined || query.until !== undefined)) {
    return page === 0 ? { skip: 0 } : null;
  }
  const perPage = query.perPage ?? DEFAULT_COMMITS_PER_PAGE;
  const skip = page * perPage;
  return perPage === 0 || !Number.isSafeInteger(skip) ? null : { skip, maxCount: perPage };
}

/** The path, author and message filters that are given (an unfiltered walk has none of the keys). */
function filters(query: CommitsQuery): Pick<WalkCommitsOptions, 'path' | 'author' | 'message'> {
  return {
    ...(query.path === undefined ? {} : { path: query.path }),
    ...(query.author === undefined ? {} : { author: query.author }),
    ...(query.q === undefined ? {} : { message: query.q }),
  };
}

/** The commits of a long range as API items, chunk by chunk. */
async function* commitChunks(first: readonly GitCommit[], rest: AsyncIterable<readonly GitCommit[]>): AsyncGenerator<Commit[]> {
  if (first.length > 0) yield first.map(toCommit);
  for await (const chunk of rest) yield chunk.map(toCommit);
}

function ignore(): void {
  // Only the moment matters (the diff's own outcome is awaited elsewhere), or nothing is held.
}

/** Top-level `refs/heads/*`, then `refs/remotes/*` (name order), whose tip contains `sha`. */
function branchesContaining(git: GitRepository, sha: Oid): Promise<string[]> {
  return git.refsContaining(sha, ['refs/heads/', 'refs/remotes/']);
}
