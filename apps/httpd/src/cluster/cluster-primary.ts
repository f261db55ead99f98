/**
 * `--workers N`: the primary process of a node:cluster. It serves nothing itself: it forks N
 * serving workers that share the listen address (the kernel's connections are handed out
 * round-robin by the primary), forwards signals, replaces a worker that dies while serving,
 * and answers metrics and readiness for all of them. Each worker is a whole server with its
 * own caches and git processes: nothing is shared, so nothing can be stale across workers.
 */
import cluster from 'node:cluster';
import type { Logger } from 'pino';
import { formatListenAddress } from '../config/listen-address.js';
import type { ServerConfig } from '../config/server-config.js';
import { removeStaleSocket } from '../config/stale-socket.js';
import { clusterMetricsSource } from '../telemetry/cluster-metrics.js';
import { type MetricsServer, startMetricsServer } from '../telemetry/metrics-server.js';
import { Readiness } from '../telemetry/readiness.js';
import { signalWorkers, WorkerSupervisor } from './worker-supervisor.js';

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
  const metrics = await startPrimaryMetrics(config, readiness);
  const supervisor = new WorkerSupervisor({ config, logger, readiness, metrics, exit });
  cluster.on('exit', (worker, code, signal) => supervisor.workerExited(worker, code, signal));
  process.once('SIGINT', () => supervisor.stop('SIGINT'));
  process.once('SIGTERM', () => supervisor.stop('SIGTERM'));
  process.on('SIGHUP', () => {
    logger.info({ event: 'reload', signal: 'SIGHUP' }, 'SIGHUP: workers re-read config.json');
    signalWorkers('SIGHUP');
  });
  // Logged once the address is bound (the port is known only then when 0 was asked for).
  cluster.once('listening', (_worker, address) => announceClusterServing({ config, port: address.port, metrics, logger }));
  for (let index = 0; index < config.workers; index += 1) supervisor.fork();
}

/** The metrics and readiness listener of all the workers, when `config.metricsListen` is set. */
async function startPrimaryMetrics(config: ServerConfig, readiness: Readiness): Promise<MetricsServer | null> {
  if (config.metricsListen === null) return null;
  if (config.metricsListen.kind === 'unix') await removeStaleSocket(config.metricsListen.path);
  return startMetricsServer({ listen: config.metricsListen, registry: clusterMetricsSource(), readiness });
}

/** What {@link announceClusterServing} reads. */
interface AnnounceClusterServingOptions {
  readonly config: ServerConfig;
  /** The port the workers' shared listener bound (used for a TCP address). */
  readonly port: number;
  readonly metrics: MetricsServer | null;
  readonly logger: Logger;
}

/** Logs the flavour and the address the workers serve, once for all of them. */
function announceClusterServing({ config, port, metrics, logger }: AnnounceClusterServingOptions): void {
  const bound = config.listen.kind === 'tcp' ? { ...config.listen, port } : config.listen;
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
}
