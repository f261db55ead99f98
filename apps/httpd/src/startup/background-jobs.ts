import type { Logger } from 'pino';
import type { CobStoreService } from '../cobs/cob-store.service.js';
import type { RequestsInFlight } from '../platform/requests-in-flight.js';
import { ReposService } from '../repos/repos.service.js';
import { RepositoryAccess } from '../repository-access/repository-access.service.js';
import type { RunningServer } from '../server.js';
import { COBS_AHEAD_PACING } from '../warm-up/evaluate-cobs-ahead.js';
import { runCobsAheadPass } from './jobs/cobs-ahead-pass.js';
import { prepareCommitGraphs } from './jobs/prepare-commit-graphs.js';
import { readActivityAhead } from './jobs/read-activity-ahead.js';
import { restoreLastCommitIndexes } from './jobs/restore-last-commit-indexes.js';

/** What {@link startBackgroundJobs} reads. */
export interface BackgroundJobsOptions {
  readonly server: Pick<RunningServer, 'app' | 'home'>;
  readonly cobs: CobStoreService;
  /** The server's requests, whose quiet moments the jobs step into. */
  readonly inFlight: Pick<RequestsInFlight, 'whenQuiet'>;
  /** Stops the jobs that can stop (server closing). */
  readonly signal: AbortSignal;
  readonly logger: Logger;
  /** This process's cluster worker id; undefined when it serves alone. */
  readonly worker: number | undefined;
}

/**
 * Start-up step, once ready: the background jobs, each in startup/jobs/, in the order
 * ARCHITECTURE.md "Start-up" gives. None of them is waited for; each logs when it is done.
 */
export function startBackgroundJobs({ server, cobs, inFlight, signal, logger, worker }: BackgroundJobsOptions): void {
  const quiet = (): Promise<void> => inFlight.whenQuiet(COBS_AHEAD_PACING.repository);
  const activityAhead = (): void => readActivityAhead({ repos: server.app.get(ReposService), quiet, logger });
  restoreLastCommitIndexes({ storage: server.home.storage, quiet, logger });
  // The COB pass runs in one process: other workers find its results in the cache directory.
  if (worker !== undefined && worker !== 1) return activityAhead();
  const access = server.app.get(RepositoryAccess);
  void runCobsAheadPass({ home: server.home, access, cobs, inFlight, signal, logger }).then((complete) => {
    if (!complete) return;
    activityAhead();
    prepareCommitGraphs({ storage: server.home.storage, logger });
  });
}
