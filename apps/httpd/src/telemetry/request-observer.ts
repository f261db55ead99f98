import type { Logger } from 'pino';
import type { RequestRecord } from './request-record.js';

/** Receives every finished request (metrics). Must be cheap: it runs on the hot path. */
export type RequestListener = (record: RequestRecord) => void;

/**
 * Where every finished request goes, whichever path answered it (the front cache or Fastify):
 * one log line at `info` and each listener. The path is logged without its query at `info`
 * (a query may name a private repository); the whole target only at `debug`.
 */
export class RequestObserver {
  private readonly listeners: RequestListener[] = [];
  private readonly info: boolean;
  private readonly debug: boolean;

  /** @param logger - the server's logger, also Fastify's */
  constructor(readonly logger: Logger) {
    this.info = logger.isLevelEnabled('info');
    this.debug = logger.isLevelEnabled('debug');
  }

  /** Adds a listener of every later request. */
  listen(listener: RequestListener): void {
    this.listeners.push(listener);
  }

  /** Logs and counts one finished request. */
  record(record: RequestRecord): void {
    for (const listener of this.listeners) listener(record);
    if (!this.info) return;
    const query = record.url.indexOf('?');
    this.logger.info(
      {
        reqId: record.id,
        ip: record.ip,
        method: record.method,
        route: record.route,
        path: query === -1 ? record.url : record.url.slice(0, query),
        status: record.status,
        ms: Math.round(record.durationMs * 100) / 100,
        bytes: record.bytes,
        cache: record.cache ?? undefined,
        url: this.debug && query !== -1 ? record.url : undefined,
      },
      'request',
    );
  }
}
