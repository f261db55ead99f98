import type { NodeHome } from '@forge-httpd/storage';
import type { Logger } from 'pino';
import type { CobStoreService } from '../../cobs/cob-store.service.js';
import type { RequestsInFlight } from '../../platform/requests-in-flight.js';
import type { RepositoryAccess } from '../../repository-access/repository-access.service.js';
import { COBS_AHEAD_PACING, evaluateCobsAhead } from '../../warm-up/evaluate-cobs-ahead.js';

/** What {@link runCobsAheadPass} reads. */
export interface CobsAheadPassOptions {
  readonly home: NodeHome;
  readonly access: RepositoryAccess;
  readonly cobs: CobStoreService;
  readonly inFlight: Pick<RequestsInFlight, 'whenQuiet'>;
  /** Stops the pass (server closing). */
  readonly signal: AbortSignal;
  readonly logger: Logger;
}

/**
 * Background job, in one process after ready: the issues and patches of every public
 * repository evaluated ahead of their first visitor, in the gaps between requests
 * (warm-up/evaluate-cobs-ahead.ts). Other workers find its results in the cache directory.
 * @returns whether the pass went through every repository (false when stopped)
 */
export async function runCobsAheadPass({ home, access, cobs, inFlight, signal, logger }: CobsAheadPassOptions): Promise<boolean> {
  const ahead = await evaluateCobsAhead({
    home,
    access,
    cobs,
    pace: (step) => inFlight.whenQuiet(COBS_AHEAD_PACING[step]),
    signal,
    // The same bound as the persisted listings loaded before ready.
    maxObjects: cobs.warmUpObjects,
    onError: (rid, error) => logger.debug({ event: 'cobs-ahead', rid, err: error }, `issues and patches of ${rid} not evaluated ahead`),
  });
  logger.info(
    { event: 'cobs-ahead', ...ahead },
    `issues and patches evaluated ahead: ${ahead.objects} objects of ${ahead.withObjects} repositories in ${ahead.ms} ms` +
      (ahead.skipped > 0 ? `, ${ahead.skipped} repositories left for their first visitor (over ${cobs.warmUpObjects} objects)` : '') +
      (ahead.complete ? '' : ' (stopped)'),
  );
  return ahead.complete;
}
