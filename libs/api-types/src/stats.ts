/**
 * Wire type of tree statistics (api.md "Tree statistics", operation 14; behaviour.md B §5.14).
 */

/** `GET /repos/{rid}/stats/tree/{sha}`. */
export interface TreeStats {
  /** Commits reachable from the commit, itself included. */
  commits: number;
  /** Number of `refs/heads/*` of the repository (independent of the commit). */
  branches: number;
  /** Distinct (author name, author email) pairs among those commits. */
  contributors: number;
}

/** `GET /repos/{rid}/stats/commits/{sha}`: commits reachable from the commit, itself included. */
export interface CommitCountStats {
  commits: number;
}

/** `GET /repos/{rid}/diff/{base}/{oid}/stats`: what `git diff --numstat base oid` sums to. */
export interface RangeDiffStats {
  filesChanged: number;
  insertions: number;
  deletions: number;
}
