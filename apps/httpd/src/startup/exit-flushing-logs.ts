import type { ServerLogger } from '../telemetry/server-logger.js';

/** Ends the process with `code`. */
export type ExitProcess = (code: number) => never;

/**
 * How the process ends: the log's buffered lines are written out first (JSON lines are
 * written asynchronously, and `process.exit` would drop them).
 * @param serverLogger the process's logger, or null before the command line made one
 */
export function exitFlushingLogs(serverLogger: ServerLogger | null): ExitProcess {
  return (code) => {
    serverLogger?.flush();
    process.exit(code);
  };
}
