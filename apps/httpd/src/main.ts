#!/usr/bin/env node
// forge-httpd command line: parse flags and environment once, then serve (bootstrap only).
// First: the young generation is bounded while everything below loads.
import { processYoungGeneration } from './platform/process-young-generation.js';
import 'reflect-metadata';
import cluster from 'node:cluster';
import { homedir } from 'node:os';
import { checkGit } from '@forge-httpd/storage';
import type { Logger } from 'pino';
import { type CommandLineOptions, parseCommandLine, USAGE } from './config/command-line.js';
import { demoCacheRoot, ensureDemoHome } from './config/demo-home.js';
import { divideMemoryBudget } from './config/memory-budget.js';
import { formatListenAddress } from './config/listen-address.js';
import { resolveServerConfig } from './config/resolve-config.js';
import { workerReadyMessage } from './cluster/worker-messages.js';
import type { ServerConfig } from './config/server-config.js';
import { readServerVersion } from './config/version.js';
import { FreeMemoryRelease } from './platform/free-memory-release.js';
import { HeapHeadroom } from './platform/heap-headroom.js';
import { resolveLogLevel } from './telemetry/log-level.js';
import { createServerLogger, type ServerLogger } from './telemetry/server-logger.js';

/** Set once the command line is parsed; before that, messages are plain text on stderr. */
let serverLogger: ServerLogger | null = null;

function exit(code: number): never {
  serverLogger?.flush();
  process.exit(code);
}

async function configure(options: CommandLineOptions, logger: Logger, version: string): Promise<ServerConfig> {
  // Without git no repository can be read: say so once and stop (docs/operating.md "Faults and fuzzing").
  await checkGit();
  const userHome = homedir();
  return resolveServerConfig({
    options,
    env: process.env,
    userHome,
    cwd: process.cwd(),
    version,
    ensureDemoHome: async (flavour) => {
      // Only the demo needs the builder: loaded here, and its recipe version names the folder.
      const { DEMO_RECIPE_VERSION } = await import('@forge-httpd/builder');
      const cacheRoot = demoCacheRoot(process.env, userHome);
      const demoVersion = `${version}-r${DEMO_RECIPE_VERSION}`;
      return ensureDemoHome({ cacheRoot, version: demoVersion, flavour, log: (message) => logger.info({ event: 'demo' }, message) });
    },
  });
}

async function main(): Promise<void> {
  const version = readServerVersion();
  const commandLine = parseCommandLine(process.argv.slice(2));
  if (commandLine.action === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  if (commandLine.action === 'version') {
    process.stdout.write(`forge-httpd ${version}\n`);
    return;
  }
  serverLogger = createServerLogger({ level: resolveLogLevel(commandLine.options.logLevel, process.env) });
  const worker = cluster.worker?.id;
  const logger = worker === undefined ? serverLogger.logger : serverLogger.logger.child({ worker });
  const config = await configure(commandLine.options, logger, version);
  if (config.workers > 1 && cluster.isPrimary) {
    const { runClusterPrimary } = await import('./cluster/cluster-primary.js');
    await runClusterPrimary({ config, logger, exit });
    return;
  }
  // From the start, so the index build's garbage is bounded too.
  const memoryBounds = divideMemoryBudget(config.memoryBudgetMiB);
  const heapHeadroom = new HeapHeadroom(memoryBounds.heapHeadroomBytes);
  heapHeadroom.start();
  processYoungGeneration.resize(memoryBounds.youngGenerationBytes);
  // What bursts of big answers leave in malloc's arenas goes back to the kernel.
  const { release: freeMemoryRelease, problem: noMemoryRelease } = FreeMemoryRelease.forThisProcess();
  if (noMemoryRelease !== null) logger.info({ event: 'memory' }, `free memory is not handed back to the kernel: ${noMemoryRelease}`);
  freeMemoryRelease.start();
  // Loaded only to serve, so --help and --version answer without loading Nest.
  const [
    { startServer, SHUTDOWN_GRACE_MS },
    { warmUp },
    { evaluateCobsAhead, COBS_AHEAD_PACING },
    { NestLogBridge },
    { RequestObserver },
    { CobStoreService },
    { RepositoryAccess },
    { RequestsInFlight },
    { ReposService },
  ] = await Promise.all([
    import('./server.js'),
    import('./warm-up/warm-up.js'),
    import('./warm-up/evaluate-cobs-ahead.js'),
    import('./telemetry/nest-log-bridge.js'),
    import('./telemetry/request-observer.js'),
    import('./cobs/cob-store.service.js'),
    import('./repository-access/repository-access.service.js'),
    import('./platform/requests-in-flight.js'),
    import('./repos/repos.service.js'),
  ]);
  const server = await startServer({
    config,
    logger: new NestLogBridge(logger),
    log: (message) => logger.warn({ event: 'config' }, message),
    requests: new RequestObserver(logger),
    onWebConfigReload: () => logger.info({ event: 'reload' }, 'config.json web settings reloaded'),
    clusterWorker: worker !== undefined,
    heapHeadroom,
    youngGeneration: processYoungGeneration,
    freeMemoryRelease,
  });
  const warmingStop = new AbortController();
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    // A worker can get both the terminal's SIGINT and the primary's SIGTERM.
    if (stopping) return;
    stopping = true;
    warmingStop.abort();
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
  // Before anything is announced: a signal sent as soon as the address is known must find them.
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  if (worker !== undefined) {
    // The primary went away (killed): a worker does not serve on alone.
    process.once('disconnect', () => stop('SIGTERM'));
  }
  const listen = formatListenAddress(server.address);
  // A worker's start is logged once by the primary.
  const startLevel = worker === undefined ? 'info' : 'debug';
  logger[startLevel]({ event: 'start', flavour: config.flavour, reason: config.flavourReason }, `flavour ${config.flavour} (${config.flavourReason})`);
  logger[startLevel](
    {
      event: 'start',
      version,
      home: config.home,
      homeSource: config.homeSource,
      listen,
      metrics: server.metricsAddress && formatListenAddress(server.metricsAddress),
    },
    `serving ${config.home} (${config.homeSource}, flavour ${config.flavour}) on ${listen}/api/v1`,
  );
  // The index build started with the app; the warm-up follows it. Operators (and the
  // benchmark) see when start-up work is done.
  const cobs = server.app.get(CobStoreService);
  const inFlight = new RequestsInFlight(server.app.getHttpServer());
  const warming = warmUp(server.address, server.home, warmingStop.signal, {
    cobRepositories: () => cobs.persistedRepositories(),
    visitedRepositories: () => server.visitedRepositories.mostVisited(),
  });
  // The warm-up's own requests are not visits.
  server.visitedRepositories.pauseWhile(warming);
  void warming.then((report) => {
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
    // Head times for listings sorted by activity, read in quiet moments: every process keeps
    // its own, so every worker reads them (worker 1 after its COB pass).
    const quiet = (): Promise<void> => inFlight.whenQuiet(COBS_AHEAD_PACING.repository);
    const readActivityAhead = (): void => {
      const started = performance.now();
      void server.app
        .get(ReposService)
        .readActivityAhead(quiet)
        .then(
          (repositories) =>
            logger.debug(
              { event: 'activity-ahead', repositories, ms: Math.round(performance.now() - started) },
              `head times of ${repositories} repositories read ahead`,
            ),
          (error: unknown) => logger.debug({ event: 'activity-ahead', err: error }, 'head times not read ahead'),
        );
    };
    // Commit-graphs for big repositories whose storage has none, written before their first
    // visitor asks (libs/storage git/graph/commit-graph-overlays.ts); files in the cache directory,
    // so one process writes them.
    const prepareCommitGraphs = (): void => {
      const started = performance.now();
      void server.home.storage.prepareCommitGraphs().then(
        (repositories) =>
          logger.debug(
            { event: 'commit-graphs', repositories, ms: Math.round(performance.now() - started) },
            `commit-graphs prepared for ${repositories} repositories`,
          ),
        (error: unknown) => logger.debug({ event: 'commit-graphs', err: error }, 'commit-graphs not prepared'),
      );
    };
    // Last-commit indexes kept in the cache directory, read back before a first visitor asks
    // (libs/storage git/history/commit-changes-file.ts); each process holds its own.
    const started = performance.now();
    void server.home.storage.restoreLastCommitIndexes(quiet).then(
      (repositories) =>
        logger.debug(
          { event: 'last-commits', repositories, ms: Math.round(performance.now() - started) },
          `last-commit indexes of ${repositories} repositories read back`,
        ),
      (error: unknown) => logger.debug({ event: 'last-commits', err: error }, 'last-commit indexes not read back'),
    );
    // The COB pass runs in one process: other workers find its results in the cache directory.
    if (worker !== undefined && worker !== 1) return readActivityAhead();
    void evaluateCobsAhead({
      home: server.home,
      access: server.app.get(RepositoryAccess),
      cobs,
      pace: (step) => inFlight.whenQuiet(COBS_AHEAD_PACING[step]),
      signal: warmingStop.signal,
      // The same bound as the persisted listings loaded before ready.
      maxObjects: cobs.warmUpObjects,
      onError: (rid, error) => logger.debug({ event: 'cobs-ahead', rid, err: error }, `issues and patches of ${rid} not evaluated ahead`),
    }).then((ahead) => {
      logger.info(
        { event: 'cobs-ahead', ...ahead },
        `issues and patches evaluated ahead: ${ahead.objects} objects of ${ahead.withObjects} repositories in ${ahead.ms} ms` +
          (ahead.skipped > 0 ? `, ${ahead.skipped} repositories left for their first visitor (over ${cobs.warmUpObjects} objects)` : '') +
          (ahead.complete ? '' : ' (stopped)'),
      );
      if (!ahead.complete) return;
      readActivityAhead();
      prepareCommitGraphs();
    });
  });
  // SIGHUP re-reads config.json's web section at once (docs/decisions.md); requests also notice changes by stat.
  process.on('SIGHUP', () => {
    logger.info({ event: 'reload', signal: 'SIGHUP' }, 'SIGHUP: re-reading config.json');
    server.home.reloadWebConfig();
  });
}

main().catch((error: unknown) => {
  if ((error as { code?: unknown }).code === 'USAGE') {
    process.stderr.write(`forge-httpd: ${(error as Error).message}\n\n${USAGE}`);
    exit(2);
  }
  const message = error instanceof Error ? error.message : String(error);
  if (serverLogger === null) process.stderr.write(`forge-httpd: ${message}\n`);
  else serverLogger.logger.fatal({ event: 'start', err: error instanceof Error ? { message, stack: error.stack } : undefined }, message);
  exit(1);
});
