import type { Logger } from 'pino';
import { workerReadyMessage } from '../cluster/worker-messages.js';
import type { RunningServer } from '../server.js';
import type { WarmUpReport } from '../warm-up/warm-up.js';

/** What {@link announceReady} reads. */
export interface AnnounceReadyOptions {
  readonly report: WarmUpReport;
  readonly server: Pick<RunningServer, 'home'>;
  readonly logger: Logger;
  /** This process's cluster worker id; undefined when it serves alone. */
  readonly worker: number | undefined;
}

/**
 * Start-up step, once the warm-up is done: operators (and the benchmark) see when start-up work
 * is over; a worker tells the primary, which logs once for all of them.
 */
export function announceReady({ report, server, logger, worker }: AnnounceReadyOptions): void {
  // A self-check of code every commit page relies on: say so loudly, but keep serving (git
  // answers the questions the graph cannot).
  if (report.commitGraphCode === 'inconsistent')
    logger.warn({ event: 'commit-graph-code' }, 'the commit-graph code gave unexpected answers on its warm-up graph');
  const repositories = server.home.storageIndex.stats().repositories;
  const ms = Math.round(performance.now());
  if (worker !== undefined) {
    process.send?.(workerReadyMessage(repositories, report.requests.length));
    logger.debug({ event: 'ready', repositories, warmUpRequests: report.requests.length, ms }, `worker ${worker} ready after ${ms} ms`);
  } else {
    logger.info(
      { event: 'ready', repositories, warmUpRequests: report.requests.length, ms },
      `ready: ${repositories} repositories indexed, ${report.requests.length} warm-up requests, ${ms} ms after start`,
    );
  }
}
