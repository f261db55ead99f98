import type { Logger } from 'pino';
import { type RunningServer, SHUTDOWN_GRACE_MS } from '../server.js';
import type { ExitProcess } from './exit-flushing-logs.js';

/** What {@link installStopSignals} reads. */
export interface StopSignalsOptions {
  readonly server: Pick<RunningServer, 'close'>;
  readonly logger: Logger;
  /** This process's cluster worker id; undefined when it serves alone. */
  readonly worker: number | undefined;
  readonly exit: ExitProcess;
}

/**
 * Start-up step: `SIGINT` and `SIGTERM` (and, in a worker, the primary going away) close the
 * server and end the process: 0 once closed, 1 when closing failed or hung.
 * @returns a signal aborted when stopping begins, which stops the warm-up and the background jobs
 */
export function installStopSignals({ server, logger, worker, exit }: StopSignalsOptions): AbortSignal {
  const stopStarted = new AbortController();
  const stop = (signal: NodeJS.Signals): void => {
    // A worker can get both the terminal's SIGINT and the primary's SIGTERM.
    if (stopStarted.signal.aborted) return;
    stopStarted.abort();
    // The last resort if closing itself hangs (the grace period closes every connection first).
    setTimeout(() => {
      logger.error({ event: 'stop' }, 'shutdown did not finish in time: exiting');
      exit(1);
    }, SHUTDOWN_GRACE_MS * 3).unref();
    logger.info({ event: 'stop', signal }, 'stopping: no new connections, requests in flight may finish');
    server.close().then(
      () => exit(0),
      (error: unknown) => {
        logger.error({ event: 'stop', err: error }, 'shutdown failed');
        exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  if (worker !== undefined) {
    // The primary went away (killed): a worker does not serve on alone.
    process.once('disconnect', () => stop('SIGTERM'));
  }
  return stopStarted.signal;
}
