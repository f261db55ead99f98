/**
 * The shapes of a range page's commits as the storage hands them out (`openCommitRange`,
 * `readInChunks` in walk-commits-until.ts), apart from the walk itself so that the repository
 * interface can name them without importing the walk.
 */
import type { GitCommit } from '../format/git-objects.js';
import type { OidList } from '../objects/oid-list.js';

/** The commits of a range: the first ones read, the ids of the rest (of a long range) to read. */
export interface CommitRange {
  /** The first commits, in order: the whole range when `rest` is empty. */
  readonly first: readonly GitCommit[];
  /** The ids of the commits after `first`, in order, to read in chunks (`readInChunks`). */
  readonly rest: OidList;
  /**
   * Stops counting `rest` against the bound of held ids (`HeldCommitIds`): call it once when
   * the range is read or no longer wanted, whatever happened (again: does nothing).
   */
  readonly release: () => void;
}

/** Options of a chunked read of a range's rest (`readInChunks`). */
export interface ChunkedReadOptions {
  /** Commits per chunk (`RANGE_CHUNK_COMMITS`, 256). */
  readonly size?: number;
  /**
   * Once aborted, no further chunk is read, also not one already waiting for its slot (a
   * generator's `return()` waits for the read under way, so a reader that left would still
   * pay for one chunk per waiting page; under a flood those waits queued up by the hundred).
   */
  readonly signal?: AbortSignal;
}
