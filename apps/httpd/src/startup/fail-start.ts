import { USAGE } from '../config/command-line.js';
import type { ServerLogger } from '../telemetry/server-logger.js';
import { type ExitProcess, exitFlushingLogs } from './exit-flushing-logs.js';

/**
 * What the command line does with an error that stopped start-up: a usage mistake is printed
 * with the usage (exit 2); anything else is logged as fatal, or written to stderr when no
 * logger exists yet (exit 1).
 */
export function failStart(error: unknown, serverLogger: ServerLogger | null): never {
  const exit: ExitProcess = exitFlushingLogs(serverLogger);
  if ((error as { code?: unknown }).code === 'USAGE') {
    process.stderr.write(`forge-httpd: ${(error as Error).message}\n\n${USAGE}`);
    exit(2);
  }
  const message = error instanceof Error ? error.message : String(error);
  if (serverLogger === null) process.stderr.write(`forge-httpd: ${message}\n`);
  else serverLogger.logger.fatal({ event: 'start', err: error instanceof Error ? { message, stack: error.stack } : undefined }, message);
  exit(1);
}
