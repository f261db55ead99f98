import type { Storage } from '@forge-httpd/storage';
import type { Logger } from 'pino';

/** What {@link prepareCommitGraphs} reads. */
export interface PrepareCommitGraphsOptions {
  readonly storage: Pick<Storage, 'prepareCommitGraphs'>;
  readonly logger: Logger;
}

/**
 * Background job: commit-graphs for big repositories whose storage has none, written before
 * their first visitor asks (libs/storage git/graph/commit-graph-overlays.ts). They are files in
 * the cache directory, so one process writes them.
 */
export function prepareCommitGraphs({ storage, logger }: PrepareCommitGraphsOptions): void {
  const started = performance.now();
  void storage.prepareCommitGraphs().then(
    (repositories) =>
      logger.debug(
        { event: 'commit-graphs', repositories, ms: Math.round(performance.now() - started) },
        `commit-graphs prepared for ${repositories} repositories`,
      ),
    (error: unknown) => logger.debug({ event: 'commit-graphs', err: error }, 'commit-graphs not prepared'),
  );
}
