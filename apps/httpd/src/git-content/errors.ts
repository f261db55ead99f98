/**
 * Not-found errors of the git browsing routes; the global filter answers each with the one
 * 404 body (`*_NOT_FOUND`, ARCHITECTURE.md "Errors").
 */

/** A well-formed commit id names no commit of the repository (absent, or not a commit). */
export class CommitNotFoundError extends Error {
  readonly code = 'COMMIT_NOT_FOUND';

  constructor() {
    super('commit not found');
    this.name = 'CommitNotFoundError';
  }
}

/** A tree or blob path does not exist under the commit, or names the wrong kind of entry. */
export class PathNotFoundError extends Error {
  readonly code = 'PATH_NOT_FOUND';

  constructor() {
    super('path not found');
    this.name = 'PathNotFoundError';
  }
}

/** The repository has no verified signed refs of the peer. */
export class RemoteNotFoundError extends Error {
  readonly code = 'REMOTE_NOT_FOUND';

  constructor() {
    super('remote not found');
    this.name = 'RemoteNotFoundError';
  }
}

/** A diff names more files than the stats route counts (see `NUMSTAT_MAX_BYTES`): 413. */
export class DiffStatsOverLimitError extends Error {
  readonly code = 'DIFF_STATS_OVER_LIMIT';

  constructor() {
    super('diff has too many files to count');
    this.name = 'DiffStatsOverLimitError';
  }
}
