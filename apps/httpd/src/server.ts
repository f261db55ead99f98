import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { LoggerService, LogLevel } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type NodeHome, openNodeHome, StorageRuntime } from '@forge-httpd/storage';
import { createApp, sendStallGuardOf } from './app.factory.js';
import { removeStaleSocket } from './config/stale-socket.js';
import type { ListenAddress } from './config/listen-address.js';
import { divideMemoryBudget } from './config/memory-budget.js';
import type { ServerConfig } from './config/server-config.js';
import { CobEvaluations } from './cobs/cob-evaluations.js';
import { CobRejectionLog } from './cobs/cob-rejection-log.js';
import { CobStoreService } from './cobs/cob-store.service.js';
import { GitProcesses, type GitServerLimits } from './platform/git-processes.service.js';
import type { EventStreamOptions } from './events/event-stream-options.js';
import type { FreeMemoryRelease } from './platform/free-memory-release.js';
import type { HeapHeadroom } from './platform/heap-headroom.js';
import type { YoungGenerationCap } from './platform/young-generation-cap.js';
import { HttpCaching } from './response-cache/http-caching.js';
import type { Registry } from 'prom-client';
import { shareMetricsWithPrimary } from './telemetry/cluster-metrics.js';
import { createMetricsRegistry, type MetricSources } from './telemetry/metrics.js';
import { type MetricsServer, startMetricsServer } from './telemetry/metrics-server.js';
import { Readiness } from './telemetry/readiness.js';
import { RequestObserver } from './telemetry/request-observer.js';
import { VISITED_REPOSITORIES_FILE, VisitedRepositories } from './warm-up/visited-repositories.js';
import { pino } from 'pino';

/**
 * How long a stopping server lets requests in flight finish, in ms: then every connection still
 * open (a slow download, a client that sent half a request) is closed, so shutdown takes a few
 * seconds whatever clients do.
 */
export const SHUTDOWN_GRACE_MS = 3000;

/** A listening server and how to stop it. */
export interface RunningServer {
  app: NestFastifyApplication;
  home: NodeHome;
  /** The address actually bound (the real port when 0 was asked for). */
  address: ListenAddress;
  /** The metrics listener's bound address, when `config.metricsListen` is set. */
  metricsAddress: ListenAddress | null;
  /** What `/readyz` answers. */
  readiness: Readiness;
  /** The repositories visitors asked for most (this run's and the kept ones), for the warm-up. */
  visitedRepositories: VisitedRepositories;
  /**
   * Stops accepting connections, closes idle ones, lets requests in flight finish for up to
   * {@link SHUTDOWN_GRACE_MS}, closes what is left, then closes the node home (git processes,
   * databases).
   */
  close(): Promise<void>;
}

/** Options of {@link startServer}. */
export interface StartServerOptions {
  config: ServerConfig;
  logger: LoggerService | LogLevel[] | false;
  /** Receives config.json problems found while serving (logged once per file version). */
  log: (message: string) => void;
  /** Time to receive a whole request, in ms (tests shorten it). */
  requestTimeoutMs?: number;
  /** Time an answer may wait for its client to take any byte, in ms (tests shorten it). */
  sendStallTimeoutMs?: number;
  /** Bounds of clone/fetch/archive processes (default: the platform's). */
  gitServerLimits?: GitServerLimits;
  /** Bounds and periods of the event streams (default: the platform's; tests shorten the periods). */
  eventStreams?: Partial<EventStreamOptions>;
  /** Where finished requests are logged and counted (default: not logged). */
  requests?: RequestObserver;
  /** Told each time config.json's web settings were re-read (a change, `SIGHUP`). */
  onWebConfigReload?: () => void;
  /**
   * Serving as one of `--workers N` processes: the listen address is shared through the
   * cluster primary, and metrics are collected by the primary's listener instead of our own.
   */
  clusterWorker?: boolean;
  /** The clock file stamps are judged by (default `Date.now`; tests move it ahead instead of waiting). */
  now?: () => number;
  /** The process's heap growth governor, shown in the metrics (the command line starts one). */
  heapHeadroom?: HeapHeadroom;
  /** The process's young generation bound, shown in the metrics (the command line starts one). */
  youngGeneration?: YoungGenerationCap;
  /** The process's releases of malloc's free memory, shown in the metrics (the command line starts them). */
  freeMemoryRelease?: FreeMemoryRelease;
  /** Packed objects a repository needs to get a commit-graph of ours (tests lower it). */
  commitGraphMinObjects?: number;
  /** Commits a last-commit index needs to be kept in the cache directory (tests lower it). */
  lastCommitMinCommits?: number;
  /** Bytes of commit ids long answers hold together (default: the memory budget's share; tests lower it). */
  heldCommitIdBytes?: number;
  /** Byte bound of rendered answers kept (default: the memory budget's share; 0 keeps none, e.g. to test what is behind it). */
  responseCacheBytes?: number;
  /** The storage runtime (processes, limits, caches) the server reads with (default: a new one). */
  runtime?: StorageRuntime;
}

/** Where, in the cache directory, commit-graphs are kept for repositories that have none. */
export const COMMIT_GRAPHS_DIR = 'commit-graphs';

/** Where, in the cache directory, last-commit-per-path indexes are kept across restarts. */
export const LAST_COMMITS_DIR = 'last-commits';

async function listen(app: NestFastifyApplication, address: ListenAddress, shared: boolean): Promise<ListenAddress> {
  if (address.kind === 'unix') {
    // A cluster worker's socket is bound by the primary, which removed any stale file first.
    if (!shared) await removeStaleSocket(address.path);
    await app.listen(address.path);
    return address;
  }
  await app.listen(address.port, address.host);
  const bound = app.getHttpServer().address() as AddressInfo;
  return { kind: 'tcp', host: address.host, port: bound.port };
}

/** The metrics of a built app (its providers hold the counters). */
function registryOf(
  app: NestFastifyApplication,
  parts: Pick<MetricSources, 'requests' | 'readiness' | 'home' | 'heapHeadroom' | 'youngGeneration' | 'freeMemoryRelease'>,
): Registry {
  return createMetricsRegistry({
    ...parts,
    httpCaching: app.get(HttpCaching),
    gitServers: app.get(GitProcesses).pool,
    cobEvaluations: app.get(CobEvaluations),
    cobRejections: app.get(CobRejectionLog),
    cobStores: app.get(CobStoreService),
    sendStalls: sendStallGuardOf(app),
  });
}

/**
 * Opens the node home (a missing or invalid config.json is fatal here), builds the app and
 * listens on the configured address.
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const { config } = options;
  const bounds = divideMemoryBudget(config.memoryBudgetMiB);
  // The process's one runtime (the command line starts one server per process).
  const runtime = options.runtime ?? new StorageRuntime();
  // Started while the server is small: every git process after this forks from the helper.
  const releaseSpawnHelper = await runtime.processes.useSpawnHelper(options.log);
  const home = await openNodeHome({
    runtime,
    home: config.home,
    flavour: config.flavour,
    socketPath: config.socketPath,
    log: options.log,
    onWebConfigReload: options.onWebConfigReload,
    now: options.now,
    reachabilityCommits: bounds.reachabilityCommits,
    lastCommitBytes: bounds.lastCommitBytes,
    heldCommitIdBytes: options.heldCommitIdBytes ?? bounds.heldCommitIdBytes,
    commitGraphDir: config.cacheDir === null ? null : path.resolve(config.cacheDir, COMMIT_GRAPHS_DIR),
    commitGraphMinObjects: options.commitGraphMinObjects,
    lastCommitDir: config.cacheDir === null ? null : path.resolve(config.cacheDir, LAST_COMMITS_DIR),
    lastCommitMinCommits: options.lastCommitMinCommits,
  }).catch((error: unknown) => {
    releaseSpawnHelper();
    throw error;
  });
  const requests = options.requests ?? new RequestObserver(pino({ level: 'silent' }));
  const visitedRepositories = new VisitedRepositories(config.cacheDir === null ? null : path.resolve(config.cacheDir, VISITED_REPOSITORIES_FILE));
  requests.listen((record) => visitedRepositories.record(record));
  return serveHome(options, { home, requests, readiness: new Readiness(), visitedRepositories, releaseSpawnHelper });
}

/** What {@link startServer} opened before the app is built, and the app's shared parts. */
interface ServedHome {
  readonly home: NodeHome;
  readonly requests: RequestObserver;
  readonly readiness: Readiness;
  readonly visitedRepositories: VisitedRepositories;
  /** Lets go of the git spawn helper taken for this server. */
  readonly releaseSpawnHelper: () => void;
}

/** Builds the app over an opened home and listens; on failure, closes what was opened. */
async function serveHome(options: StartServerOptions, served: ServedHome): Promise<RunningServer> {
  const { config } = options;
  const { home, requests, readiness, releaseSpawnHelper } = served;
  let metrics: MetricsServer | null = null;
  try {
    const app = await createApp({
      config,
      home,
      logger: options.logger,
      requestTimeoutMs: options.requestTimeoutMs,
      sendStallTimeoutMs: options.sendStallTimeoutMs,
      gitServerLimits: options.gitServerLimits,
      eventStreams: options.eventStreams,
      requests,
      readiness,
      responseCacheBytes: options.responseCacheBytes,
    });
    // Registered before listening, so the first request is counted too.
    const registry =
      config.metricsListen === null
        ? null
        : registryOf(app, {
            requests,
            readiness,
            home,
            heapHeadroom: options.heapHeadroom,
            youngGeneration: options.youngGeneration,
            freeMemoryRelease: options.freeMemoryRelease,
          });
    const address = await listen(app, config.listen, options.clusterWorker === true);
    metrics = await serveMetrics(options, registry, readiness);
    const metricsServer = metrics;
    return {
      app,
      home,
      address,
      metricsAddress: metricsServer?.address ?? null,
      readiness,
      visitedRepositories: served.visitedRepositories,
      close: () => closeServer(app, served, metricsServer),
    };
  } catch (error) {
    await metrics?.close();
    await home.close();
    releaseSpawnHelper();
    throw error;
  }
}

/**
 * Where the metrics go once the app listens: a cluster worker shares them with the primary's
 * listener; a process serving alone starts its own listener when one is configured.
 */
async function serveMetrics(options: StartServerOptions, registry: Registry | null, readiness: Readiness): Promise<MetricsServer | null> {
  const { metricsListen } = options.config;
  if (options.clusterWorker === true && registry !== null) shareMetricsWithPrimary(registry);
  else if (metricsListen !== null && registry !== null) {
    if (metricsListen.kind === 'unix') await removeStaleSocket(metricsListen.path);
    return startMetricsServer({ listen: metricsListen, registry, readiness });
  }
  return null;
}

/** {@link RunningServer.close}. */
async function closeServer(app: NestFastifyApplication, served: ServedHome, metricsServer: MetricsServer | null): Promise<void> {
  served.readiness.stopping();
  const http = app.getHttpServer();
  const deadline = setTimeout(() => http.closeAllConnections(), SHUTDOWN_GRACE_MS);
  try {
    await app.close();
  } finally {
    clearTimeout(deadline);
    served.visitedRepositories.flush();
    await metricsServer?.close();
    await served.home.close();
    served.releaseSpawnHelper();
  }
}
