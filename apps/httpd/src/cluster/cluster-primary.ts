/**
 * `--workers N`: the primary process of a node:cluster. It serves nothing itself: it forks N
 * serving workers that share the listen address (the kernel's connections are handed out
 * round-robin by the primary), forwards signals, replaces a worker that dies while serving,
 * and answers metrics and readiness for all of them. Each worker is a whole server with its
 * own caches and git processes: nothing is shared, so nothing can be stale across workers.
 */
import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { formatListenAddress } from '../config/listen-address.js';
import type { ServerConfig } from '../config/server-config.js';
import { removeStaleSocket } from '../config/stale-socket.js';
import { clusterMetricsSource } from '../telemetry/cluster-metrics.js';
import { type MetricsServer, startMetricsServer } from '../telemetry/metrics-server.js';
import { Readiness } from '../telemetry/readiness.js';
import { isWorkerReadyMessage, type WorkerReadyMessage } from './worker-messages.js';

/**
 * How long the primary waits for its workers to stop before killing them: past a worker's own
 * last resort (three shutdown grace periods), so a worker normally exits by itself.
 */
const STOP_DEADLINE_MS = 10_000;

/** A worker that died while serving is replaced after this pause (a crash loop stays slow). */
const RESPAWN_DELAY_MS = 1_000;

/** Options of {@link runClusterPrimary}. */
export interface ClusterPrimaryOptions {
  readonly config: ServerConfig;
  readonly logger: Logger;
  /** Ends the process (flushing logs). */
  readonly exit: (code: number) => never;
}

/**
 * Starts the workers and supervises them until a signal stops them all.
 * @throws Error when the Unix socket path exists and is not a socket, or the metrics address cannot be bound
 */
export async function runClusterPrimary(options: ClusterPrimaryOptions): Promise<void> {
  const { config, logger, exit } = options;
  // The primary binds the shared socket for the workers, so only it clears a stale file.
  if (config.listen.kind === 'unix') await removeStaleSocket(config.listen.path);
  const readiness = new Readiness();
  let metrics: MetricsServer | null = null;
  if (config.metricsListen !== null) {
    if (config.metricsListen.kind === 'unix') await removeStaleSocket(config.metricsListen.path);
    metrics = await startMetricsServer({ listen: config.metricsListen, registry: clusterMetricsSource(), readiness });
  }
  const ready = new Map<number, WorkerReadyMessage>();
  let allReady: (() => void) | null = null;
  readiness.track(new Promise<void>((resolve) => (allReady = resolve)));
  let stopping = false;
  let failed = false;

  const fork = (): Worker => {
    const worker = cluster.fork();
    worker.on('message', (message: unknown) => {
      if (!isWorkerReadyMessage(message)) return;
      ready.set(worker.id, message);
      if (ready.size !== config.workers || allReady === null) return;
      allReady();
      allReady = null;
      const first = [...ready.values()][0] as WorkerReadyMessage;
      const warmUpRequests = [...ready.values()].reduce((sum, entry) => sum + entry.warmUpRequests, 0);
      const ms = Math.round(performance.now());
      logger.info(
        { event: 'ready', repositories: first.repositories, warmUpRequests, workers: config.workers, ms },
        `ready: ${first.repositories} repositories indexed, ${warmUpRequests} warm-up requests, ${ms} ms after start (${config.workers} workers)`,
      );
    });
    return worker;
  };

  cluster.on('exit', (worker, code, signal) => {
    const wasReady = ready.delete(worker.id);
    if (stopping) {
      // A worker still starting has no handler yet: the SIGTERM we sent ends it by default,
      // which is the stop we asked for, not a failure.
      if (code !== 0 && signal !== 'SIGTERM') failed = true;
      if (liveWorkers().length === 0) void finish();
      return;
    }
    // A worker that never became ready failed at start-up (the same config fails again): stop.
    if (!wasReady && allReady !== null) {
      logger.fatal({ event: 'stop', worker: worker.id, code, signal }, `worker ${worker.id} failed to start (exit ${signal ?? code}): stopping`);
      failed = true;
      stop('SIGTERM');
      return;
    }
    logger.error({ event: 'worker', worker: worker.id, code, signal }, `worker ${worker.id} exited (${signal ?? code}) while serving: starting another`);
    setTimeout(() => {
      if (!stopping) fork();
    }, RESPAWN_DELAY_MS).unref();
  });

  const finish = async (): Promise<void> => {
    await metrics?.close();
    exit(failed ? 1 : 0);
  };

  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    readiness.stopping();
    logger.info({ event: 'stop', signal }, `stopping ${config.workers} workers`);
    signalWorkers('SIGTERM');
    if (liveWorkers().length === 0) void finish();
    setTimeout(() => {
      logger.error({ event: 'stop' }, 'workers did not stop in time: killing them');
      signalWorkers('SIGKILL');
      exit(1);
    }, STOP_DEADLINE_MS).unref();
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGHUP', () => {
    logger.info({ event: 'reload', signal: 'SIGHUP' }, 'SIGHUP: workers re-read config.json');
    signalWorkers('SIGHUP');
  });

  // Logged once the address is bound (the port is known only then when 0 was asked for).
  cluster.once('listening', (_worker, address) => {
    const bound = config.listen.kind === 'tcp' ? { ...config.listen, port: address.port } : config.listen;
    const listen = formatListenAddress(bound);
    logger.info({ event: 'start', flavour: config.flavour, reason: config.flavourReason }, `flavour ${config.flavour} (${config.flavourReason})`);
    logger.info(
      {
        event: 'start',
        version: config.version,
        home: config.home,
        homeSource: config.homeSource,
        listen,
        workers: config.workers,
        metrics: metrics && formatListenAddress(metrics.address),
      },
      `serving ${config.home} (${config.homeSource}, flavour ${config.flavour}) on ${listen}/api/v1 with ${config.workers} workers`,
    );
  });
  for (let index = 0; index < config.workers; index += 1) fork();
}

/** The workers not yet exited. */
function liveWorkers(): Worker[] {
  return Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined);
}

function signalWorkers(signal: NodeJS.Signals): void {
  for (const worker of liveWorkers()) worker.process.kill(signal);
}
