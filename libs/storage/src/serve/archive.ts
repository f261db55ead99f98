import type { Readable } from 'node:stream';
import { gitArguments } from '../git/processes/git-command.js';
import type { Oid } from '../git/objects/oid.js';
import type { GitServerPool } from './git-server-pool.js';

/** Formats of `git archive` served (git's own names). */
export type ArchiveFormat = 'tar' | 'tar.gz' | 'zip';

/** Input of {@link archiveCommit}. */
export interface ArchiveRequest {
  /** The repository's git directory, from storage. */
  readonly gitDir: string;
  /** A commit known to exist (validated oid). */
  readonly commit: Oid;
  readonly format: ArchiveFormat;
  /**
   * Directory every entry is put under (no `/`: a single path component), or null for none.
   * @example `heartwood-2da44511db…`
   */
  readonly prefix: string | null;
}

const SAFE_PREFIX = /^[A-Za-z0-9._+-]+$/;

/**
 * Streams `git archive` of a commit in a slot of `pool`; a failure after the first bytes makes
 * the stream error (a truncated archive never looks complete).
 * @param pool - bounds of git server processes
 * @param request - repository, commit, format and prefix
 * @returns the archive bytes, streamed
 * @throws BusyError when the pool is full; Error when the prefix is not one safe path component
 */
export function archiveCommit(pool: GitServerPool, request: ArchiveRequest): Readable {
  if (request.prefix !== null && (!SAFE_PREFIX.test(request.prefix) || request.prefix === '..' || request.prefix === '.')) {
    throw new Error('archive prefix must be one safe path component');
  }
  const args = gitArguments(request.gitDir, [
    'archive',
    `--format=${request.format}`,
    ...(request.prefix === null ? [] : [`--prefix=${request.prefix}/`]),
    '--end-of-options',
    request.commit,
  ]);
  return pool.start({ args, failOnExit: true });
}
