#!/usr/bin/env node
// forge-httpd command line: parse flags and environment once, then serve. Each start-up step is
// a function of startup/; their order and the reasons for it are in ARCHITECTURE.md "Start-up".
// First: the young generation is bounded while everything below loads.
import { processYoungGeneration } from './platform/process-young-generation.js';
import 'reflect-metadata';
import cluster from 'node:cluster';
import { type CommandLineOptions, parseCommandLine, USAGE } from './config/command-line.js';
import { readServerVersion } from './config/version.js';
import { configureServer } from './startup/configure-server.js';
import { exitFlushingLogs } from './startup/exit-flushing-logs.js';
import { failStart } from './startup/fail-start.js';
import { startMemoryControls } from './startup/memory-controls.js';
import { resolveLogLevel } from './telemetry/log-level.js';
import { createServerLogger, type ServerLogger } from './telemetry/server-logger.js';

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
  const serverLogger = createServerLogger({ level: resolveLogLevel(commandLine.options.logLevel, process.env) });
  await serve(commandLine.options, version, serverLogger).catch((error: unknown) => failStart(error, serverLogger));
}

/** The start-up steps once the process has its logger: as one of a cluster's processes or alone. */
async function serve(options: CommandLineOptions, version: string, serverLogger: ServerLogger): Promise<void> {
  const exit = exitFlushingLogs(serverLogger);
  const worker = cluster.worker?.id;
  const logger = worker === undefined ? serverLogger.logger : serverLogger.logger.child({ worker });
  const config = await configureServer({ options, logger, version });
  if (config.workers > 1 && cluster.isPrimary) {
    const { runClusterPrimary } = await import('./cluster/cluster-primary.js');
    await runClusterPrimary({ config, logger, exit });
    return;
  }
  const memory = startMemoryControls({ config, youngGeneration: processYoungGeneration, logger });
  // Loaded only to serve: --help, --version and a cluster primary never load Nest.
  const { serveThisProcess } = await import('./startup/serve-this-process.js');
  await serveThisProcess({ config, version, logger, worker, memory, exit });
}

main().catch((error: unknown) => failStart(error, null));
