import type { LoggerService } from '@nestjs/common';
import type { Logger } from 'pino';

/**
 * Nest's `Logger` (services' warnings, the error filter, Nest's own start-up messages) written
 * through the server's pino logger, with the Nest context as `context`. Nest's `log` level is
 * its start-up chatter ("Mapped {…} route"): it goes to `debug`.
 */
export class NestLogBridge implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }

  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }

  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }

  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }

  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }

  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  private write(level: 'trace' | 'debug' | 'warn' | 'error' | 'fatal', message: unknown, rest: unknown[]): void {
    if (!this.logger.isLevelEnabled(level)) return;
    // Nest passes the context last; `error` may pass a stack before it.
    const context = typeof rest[rest.length - 1] === 'string' ? (rest[rest.length - 1] as string) : undefined;
    const stack = level === 'error' && rest.length > 1 && typeof rest[0] === 'string' ? rest[0] : undefined;
    const text = message instanceof Error ? message.message : typeof message === 'string' ? message : JSON.stringify(message);
    this.logger[level]({ context, stack }, text);
  }
}
