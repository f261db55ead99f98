import type { Logger } from 'pino';
import { CobStoreService } from '../cobs/cob-store.service.js';
import type { ServerConfig } from '../config/server-config.js';
import { RequestsInFlight } from '../platform/requests-in-flight.js';
import { announceReady } from './announce-ready.js';
import { announceServing } from './announce-serving.js';
import { startBackgroundJobs } from './background-jobs.js';
import type { ExitProcess } from './exit-flushing-logs.js';
import type { MemoryControls } from './memory-controls.js';
import { installReloadSignal } from './reload-signal.js';
import { startProcessServer } from './start-process-server.js';
import { startWarmUp } from './start-warm-up.js';
import { installStopSignals } from './stop-signals.js';

/** What {@link serveThisProcess} reads. */
export interface ServeThisProcessOptions {
  readonly config: ServerConfig;
  readonly version: string;
  readonly logger: Logger;
  /** This process's cluster worker id; undefined when it serves alone. */
  readonly worker: number | undefined;
  readonly memory: MemoryControls;
  readonly exit: ExitProcess;
}

/**
 * The start-up steps of a serving process, once its config is known and its memory controls
 * run (ARCHITECTURE.md "Start-up"). main.ts loads this module only to serve, so `--help`,
 * `--version` and a cluster primary answer without loading Nest.
 */
export async function serveThisProcess({ config, version, logger, worker, memory, exit }: ServeThisProcessOptions): Promise<void> {
  const server = await startProcessServer({ config, logger, worker, memory });
  // Before anything is announced: a signal sent as soon as the address is known must find them.
  const stopping = installStopSignals({ server, logger, worker, exit });
  announceServing({ config, version, server, logger, worker });
  const cobs = server.app.get(CobStoreService);
  const inFlight = new RequestsInFlight(server.app.getHttpServer());
  const warming = startWarmUp({ server, cobs, signal: stopping });
  void warming.then((report) => {
    announceReady({ report, server, logger, worker });
    startBackgroundJobs({ server, cobs, inFlight, signal: stopping, logger, worker });
  });
  installReloadSignal({ home: server.home, logger });
}
