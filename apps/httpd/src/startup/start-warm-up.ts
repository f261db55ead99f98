import type { CobStoreService } from '../cobs/cob-store.service.js';
import type { RunningServer } from '../server.js';
import { warmUp, type WarmUpReport } from '../warm-up/warm-up.js';

/** What {@link startWarmUp} reads. */
export interface StartWarmUpOptions {
  readonly server: Pick<RunningServer, 'address' | 'home' | 'visitedRepositories'>;
  readonly cobs: Pick<CobStoreService, 'persistedRepositories'>;
  /** Stops the warm-up (server closing). */
  readonly signal: AbortSignal;
}

/**
 * Start-up step: once the storage index is built, the warm-up asks the server for the pages
 * of the pinned and most visited repositories, so their first visitors are answered warm.
 * @returns the warm-up's report, when it is done
 */
export function startWarmUp({ server, cobs, signal }: StartWarmUpOptions): Promise<WarmUpReport> {
  const warming = warmUp(server.address, server.home, signal, {
    cobRepositories: () => cobs.persistedRepositories(),
    visitedRepositories: () => server.visitedRepositories.mostVisited(),
  });
  // The warm-up's own requests are not visits.
  server.visitedRepositories.pauseWhile(warming);
  return warming;
}
