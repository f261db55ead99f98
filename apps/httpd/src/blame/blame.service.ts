import { InvalidInputError, NotFoundError, TooLargeError } from '@forge-httpd/identity';
import { Injectable } from '@nestjs/common';
import type { Blame, Commit, LastCommits } from '@forge-httpd/api-types';
import { isBinaryContent } from '@forge-httpd/diff';
import type { GitCommit, Oid } from '@forge-httpd/storage';
import { GitContentService } from '../git-content/git-content.service.js';
import { toCommit } from '../git-content/commit.mapper.js';
import { RepositoryAccess } from '../repository-access/repository-access.service.js';
import { toTree } from '../tree/tree.mapper.js';
import { countLines, toBlame, toLastCommits } from './blame.mapper.js';

/** Largest file blamed: the blob route's bound (docs/api.md "Limits"); larger ones answer 413. */
const BLAME_MAX_BYTES = 4_194_304;
/** How long git may blame one file before the answer is 503 with `retry-after`. */
const BLAME_TIMEOUT_MS = 30_000;
/** Most bytes of `git blame --incremental` output read for one file (past it: 413). */
const BLAME_MAX_OUTPUT_BYTES = 64 * 1024 * 1024;
/** Entries of a folder answered with their last commits; the rest are left out (`truncated`). */
const LAST_COMMITS_MAX_ENTRIES = 1000;
/** How long a request waits for a history to be read into the last-commit index (then 503; the read goes on). */
const LAST_COMMITS_TIMEOUT_MS = 60_000;

/** Line attribution of files and the last commit of each entry of a folder (docs/api.md "Blame", "Last commits"). */
@Injectable()
export class BlameService {
  constructor(
    private readonly access: RepositoryAccess,
    private readonly content: GitContentService,
  ) {}

  /**
   * `GET /blame/{sha}/{path}`: git's own blame of the file, in maximal ranges.
   * @throws NotFoundError (repository, commit, path; a folder or submodule); InvalidInputError
   *   for a binary file; TooLargeError above 4 MiB; BusyError past the time limit
   */
  async getBlame(ridText: string, request: { sha: Oid; path: string }): Promise<Blame> {
    const { git } = await this.access.openPublic(ridText);
    const commit = await this.content.requireCommit(git, request.sha);
    if (request.path === '' || request.path.endsWith('/')) throw new NotFoundError('path');
    const entry = await git.findEntry(commit.tree, request.path);
    if (entry?.kind !== 'blob') throw new NotFoundError('path');
    const info = await git.readObjectInfo(entry.oid);
    if (info === null) throw new Error(`blob ${entry.oid} is missing from the repository`);
    if (info.size > BLAME_MAX_BYTES) throw new TooLargeError('blob too large');
    const bytes = await git.readBlob(entry.oid);
    if (bytes === null) throw new Error(`blob ${entry.oid} could not be read`);
    if (isBinaryContent(bytes)) throw new InvalidInputError('Invalid path: a binary file has no lines to blame');
    const lines = countLines(bytes);
    // Each commit is read as git names it, while git goes on blaming on another core.
    const reads = new Map<Oid, Promise<GitCommit | null>>();
    const onCommit = (oid: Oid): void => {
      if (oid === commit.oid || reads.has(oid)) return;
      const read = git.readCommit(oid);
      // Awaited below once git is done; a failure meanwhile must not count as unhandled.
      read.catch(() => undefined);
      reads.set(oid, read);
    };
    const ranges = await git.blame({
      commit: commit.oid,
      path: request.path,
      lines,
      timeoutMs: BLAME_TIMEOUT_MS,
      maxOutputBytes: BLAME_MAX_OUTPUT_BYTES,
      onCommit,
    });
    const named = [...new Set(ranges.map((range) => range.commit))];
    const commits = await wireCommits(commit, named, (others) => Promise.all(others.map((oid) => reads.get(oid) ?? git.readCommit(oid))));
    return toBlame({ path: request.path, commit: commit.oid, lines, ranges, commits });
  }

  /**
   * `GET /last-commits/{sha}/{path}`: the folder's entries in the tree route's order, each with
   * the blob page's `lastCommit` for its path, from one walk of the last-commit index.
   * @throws NotFoundError (repository, commit, path; a file or submodule); BusyError while the
   *   history is still being read past the time limit; TooLargeError when it cannot be held
   */
  async getLastCommits(ridText: string, request: { sha: Oid; path: string }): Promise<LastCommits> {
    const { git } = await this.access.openPublic(ridText);
    const commit = await this.content.requireCommit(git, request.sha);
    const folder = await git.findEntry(commit.tree, request.path);
    const listed = folder?.kind === 'tree' ? await git.readTree(folder.oid) : null;
    if (listed === null) throw new NotFoundError('path');
    const ordered = toTree({ path: request.path, entries: listed, commit: toCommit(commit) }).entries;
    const kept = ordered.slice(0, LAST_COMMITS_MAX_ENTRIES);
    const names = kept.map((entry) => entry.name);
    const oids = await git.lastCommitsInFolder({ from: commit.oid, folder: request.path, names, timeoutMs: LAST_COMMITS_TIMEOUT_MS });
    // As the blob page: an entry no commit is found for shows the requested commit.
    const found = oids.map((oid) => oid ?? commit.oid);
    const commits = await wireCommits(commit, [...new Set(found)], (others) => git.readCommits(others));
    const entries = kept.map((entry, at) => ({
      name: entry.name,
      path: entry.path,
      commit: commits.get(found[at] as Oid) ?? (commits.get(commit.oid) as Commit),
    }));
    return toLastCommits({ path: request.path, entries, truncated: ordered.length > kept.length });
  }
}

/**
 * The wire commits of some ids; `known` is used as it is, the others come from `read` (in the
 * order given to it).
 */
async function wireCommits(
  known: GitCommit,
  oids: readonly Oid[],
  read: (others: Oid[]) => Promise<ReadonlyArray<GitCommit | null>>,
): Promise<Map<Oid, Commit>> {
  const others = oids.filter((oid) => oid !== known.oid);
  const found = await read(others);
  const commits = new Map<Oid, Commit>([[known.oid, toCommit(known)]]);
  others.forEach((oid, at) => {
    const commit = found[at];
    if (commit == null) throw new Error(`commit ${oid} could not be read`);
    commits.set(oid, toCommit(commit));
  });
  return commits;
}
