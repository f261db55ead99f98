import type { Storage } from '@forge-httpd/storage';
import type { Logger } from 'pino';

/** What {@link restoreLastCommitIndexes} reads. */
export interface RestoreLastCommitIndexesOptions {
  readonly storage: Pick<Storage, 'restoreLastCommitIndexes'>;
  /** Resolves at the next quiet moment between visitors' requests. */
  readonly quiet: () => Promise<void>;
  readonly logger: Logger;
}

/**
 * Background job, in every process after ready: the last-commit indexes kept in the cache
 * directory are read back before a first visitor asks (libs/storage
 * git/history/commit-changes-file.ts); each process holds its own.
 */
export function restoreLastCommitIndexes({ storage, quiet, logger }: RestoreLastCommitIndexesOptions): void {
  const started = performance.now();
  void storage.restoreLastCommitIndexes(quiet).then(
    (repositories) =>
      logger.debug(
        { event: 'last-commits', repositories, ms: Math.round(performance.now() - started) },
        `last-commit indexes of ${repositories} repositories read back`,
      ),
    (error: unknown) => logger.debug({ event: 'last-commits', err: error }, 'last-commit indexes not read back'),
  );
}
