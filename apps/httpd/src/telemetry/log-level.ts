import { UsageError } from '../config/usage-error.js';

/** pino's levels, most verbose last; `silent` logs nothing. */
const LOG_LEVELS = ['silent', 'fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

/** A `--log-level` value. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The level when neither `--log-level` nor `FORGE_LOG_LEVEL` is given. */
const DEFAULT_LOG_LEVEL: LogLevel = 'info';

/**
 * Reads `--log-level`, else `FORGE_LOG_LEVEL`, else {@link DEFAULT_LOG_LEVEL}.
 * @throws UsageError for a value that is not one of {@link LOG_LEVELS}
 */
export function resolveLogLevel(flag: string | undefined, env: Readonly<Record<string, string | undefined>>): LogLevel {
  const fromEnv = env['FORGE_LOG_LEVEL'];
  const value = flag ?? (fromEnv === undefined || fromEnv === '' ? DEFAULT_LOG_LEVEL : fromEnv);
  if (!(LOG_LEVELS as readonly string[]).includes(value)) throw new UsageError(`Invalid --log-level: expected one of ${LOG_LEVELS.join(', ')}`);
  return value as LogLevel;
}
