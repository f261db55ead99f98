import type { Logger } from 'pino';
import type { ReposService } from '../../repos/repos.service.js';

/** What {@link readActivityAhead} reads. */
export interface ReadActivityAheadOptions {
  readonly repos: Pick<ReposService, 'readActivityAhead'>;
  /** Resolves at the next quiet moment between visitors' requests. */
  readonly quiet: () => Promise<void>;
  readonly logger: Logger;
}

/**
 * Background job: the head times that listings sorted by activity need, read in quiet moments.
 * Every process keeps its own, so every worker reads them.
 */
export function readActivityAhead({ repos, quiet, logger }: ReadActivityAheadOptions): void {
  const started = performance.now();
  void repos.readActivityAhead(quiet).then(
    (repositories) =>
      logger.debug(
        { event: 'activity-ahead', repositories, ms: Math.round(performance.now() - started) },
        `head times of ${repositories} repositories read ahead`,
      ),
    (error: unknown) => logger.debug({ event: 'activity-ahead', err: error }, 'head times not read ahead'),
  );
}
