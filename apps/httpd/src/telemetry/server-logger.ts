import { writeSync } from 'node:fs';
import { isatty } from 'node:tty';
import { type DestinationStream, type Logger, pino } from 'pino';
import type { LogLevel } from './log-level.js';
import { TtyLogStream } from './tty-log-format.js';

/** JSON lines are written once this many bytes gathered (fewer, larger writes under load)… */
const BATCH_BYTES = 8 * 1024;
/** …or after this delay, whichever comes first. */
const FLUSH_INTERVAL_MS = 250;

/** The process's logger and how to flush it before exiting. */
export interface ServerLogger {
  readonly logger: Logger;
  /** Writes buffered lines out now (call before `process.exit`). */
  flush(): void;
}

/** Options of {@link createServerLogger}. */
export interface ServerLoggerOptions {
  level: LogLevel;
  /** Output file descriptor (default 2, standard error). */
  fd?: number;
  /** Readable lines instead of JSON (default: when `fd` is a terminal). */
  pretty?: boolean;
}

/**
 * The one pino logger of the process (Fastify's, Nest's through {@link NestLogBridge}, the
 * start-up and reload events'): JSON lines, one object each, on standard error; readable
 * lines when that is a terminal. JSON output is buffered and written asynchronously so a line
 * per request stays cheap; {@link ServerLogger.flush} empties the buffer.
 */
export function createServerLogger(options: ServerLoggerOptions): ServerLogger {
  const fd = options.fd ?? 2;
  const pretty = options.pretty ?? isatty(fd);
  // Terminal lines are written at once; JSON lines asynchronously (under load, a write in
  // flight lets the next lines gather into one).
  const destination: DestinationStream & { flush?: () => void; flushSync?: () => void } = pretty
    ? new TtyLogStream({ write: (text: string) => writeSync(fd, text) })
    : pino.destination({ dest: fd, sync: false, minLength: BATCH_BYTES });
  if (!pretty) {
    // Batched lines reach the output within this delay when traffic is low.
    setInterval(() => destination.flush?.(), FLUSH_INTERVAL_MS).unref();
  }
  // No pid/hostname on every line: the service manager's journal already has them.
  const logger = pino({ level: options.level, base: undefined }, destination);
  return {
    logger,
    flush: () => {
      try {
        destination.flushSync?.();
      } catch {
        // Nothing to flush yet (the stream is still opening) or the descriptor is gone.
      }
    },
  };
}
