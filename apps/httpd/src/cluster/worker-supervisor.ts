import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import type { ServerConfig } from '../config/server-config.js';
import type { MetricsServer } from '../telemetry/metrics-server.js';
import type { Readiness } from '../telemetry/readiness.js';
import { isWorkerReadyMessage, type WorkerReadyMessage } from './worker-messages.js';

/**
 * How long the primary waits for its workers to stop before killing them: past a worker's own
 * last resort (three shutdown grace periods), so a worker normally exits by itself.
 */
const STOP_DEADLINE_MS = 10_000;

/** A worker that died while serving is replaced after this pause (a crash loop stays slow). */
const RESPAWN_DELAY_MS = 1_000;

/** What a {@link WorkerSupervisor} works with. */
export interface WorkerSupervisorOptions {
  readonly config: ServerConfig;
  readonly logger: Logger;
  /** What `/readyz` answers: ready once every worker is. */
  readonly readiness: Readiness;
  /** The primary's metrics listener, closed last. */
  readonly metrics: MetricsServer | null;
  /** Ends the process (flushing logs). */
  readonly exit: (code: number) => never;
}

/**
 * The cluster primary's workers: forks them, logs once when all are ready, replaces one that
 * dies while serving, stops them all on a signal or when one fails to start.
 */
export class WorkerSupervisor {
  private readonly ready = new Map<number, WorkerReadyMessage>();
  private allReady: (() => void) | null = null;
  private stopping = false;
  private failed = false;

  constructor(private readonly options: WorkerSupervisorOptions) {
    options.readiness.track(new Promise<void>((resolve) => (this.allReady = resolve)));
  }

  /** Starts one more worker. */
  fork(): Worker {
    const worker = cluster.fork();
    worker.on('message', (message: unknown) => {
      if (isWorkerReadyMessage(message)) this.workerReady(worker, message);
    });
    return worker;
  }

  private workerReady(worker: Worker, message: WorkerReadyMessage): void {
    const { config, logger } = this.options;
    this.ready.set(worker.id, message);
    if (this.ready.size !== config.workers || this.allReady === null) return;
    this.allReady();
    this.allReady = null;
    const first = [...this.ready.values()][0] as WorkerReadyMessage;
    const warmUpRequests = [...this.ready.values()].reduce((sum, entry) => sum + entry.warmUpRequests, 0);
    const ms = Math.round(performance.now());
    logger.info(
      { event: 'ready', repositories: first.repositories, warmUpRequests, workers: config.workers, ms },
      `ready: ${first.repositories} repositories indexed, ${warmUpRequests} warm-up requests, ${ms} ms after start (${config.workers} workers)`,
    );
  }

  /** Told of every worker's exit (`cluster`'s `exit` event). */
  workerExited(worker: Worker, code: number, signal: string): void {
    const { logger } = this.options;
    const wasReady = this.ready.delete(worker.id);
    if (this.stopping) {
      // A worker still starting has no handler yet: the SIGTERM we sent ends it by default,
      // which is the stop we asked for, not a failure.
      if (code !== 0 && signal !== 'SIGTERM') this.failed = true;
      if (liveWorkers().length === 0) void this.finish();
      return;
    }
    // A worker that never became ready failed at start-up (the same config fails again): stop.
    if (!wasReady && this.allReady !== null) {
      logger.fatal({ event: 'stop', worker: worker.id, code, signal }, `worker ${worker.id} failed to start (exit ${signal ?? code}): stopping`);
      this.failed = true;
      this.stop('SIGTERM');
      return;
    }
    logger.error({ event: 'worker', worker: worker.id, code, signal }, `worker ${worker.id} exited (${signal ?? code}) while serving: starting another`);
    setTimeout(() => {
      if (!this.stopping) this.fork();
    }, RESPAWN_DELAY_MS).unref();
  }

  /** Stops every worker, then the process: 0 when all stopped cleanly, 1 otherwise or past the deadline. */
  stop(signal: NodeJS.Signals): void {
    const { config, logger, readiness, exit } = this.options;
    if (this.stopping) return;
    this.stopping = true;
    readiness.stopping();
    logger.info({ event: 'stop', signal }, `stopping ${config.workers} workers`);
    signalWorkers('SIGTERM');
    if (liveWorkers().length === 0) void this.finish();
    setTimeout(() => {
      logger.error({ event: 'stop' }, 'workers did not stop in time: killing them');
      signalWorkers('SIGKILL');
      exit(1);
    }, STOP_DEADLINE_MS).unref();
  }

  private async finish(): Promise<void> {
    await this.options.metrics?.close();
    this.options.exit(this.failed ? 1 : 0);
  }
}

/** The workers not yet exited. */
function liveWorkers(): Worker[] {
  return Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined);
}

/** Sends `signal` to every live worker. */
export function signalWorkers(signal: NodeJS.Signals): void {
  for (const worker of liveWorkers()) worker.process.kill(signal);
}
