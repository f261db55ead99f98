import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { clientAddressOf } from './client-address.js';
import type { FrontCacheHit } from '../response-cache/front-cache.js';
import type { CacheOutcome, RequestRecord } from './request-record.js';
import { requestIdOf } from './request-ids.js';
import { UNMATCHED_ROUTE } from './request-record.js';
import type { RequestObserver } from './request-observer.js';

/** Socket bytes already written when a request began (for answers without a length). */
export const SOCKET_BYTES_AT_START = Symbol('forgeSocketBytesAtStart');

/**
 * Fastify's request logging, replaced by one line per request: Fastify's own `incoming
 * request` / `request completed` pair becomes a single {@link RequestObserver} record when the
 * answer is finished (route pattern, status, time, bytes, cache outcome).
 */
export class RequestLogController extends LogController {
  constructor(
    private readonly observer: RequestObserver,
    private readonly cacheOutcome: (request: FastifyRequest) => CacheOutcome,
  ) {
    super({ disableRequestLogging: false });
  }

  override incomingRequest(): void {}

  /** The not-found answer is recorded by {@link requestCompleted} like any other. */
  override routeNotFound(): void {}

  override requestCompleted(_error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    this.observer.record({
      id: request.id,
      method: request.method,
      route: request.routeOptions.url ?? UNMATCHED_ROUTE,
      url: request.url,
      status: reply.statusCode,
      durationMs: reply.elapsedTime,
      bytes: bytesOf(request, reply),
      cache: this.cacheOutcome(request),
      ip: clientAddressOf(request.raw),
    });
  }
}

/** The record of a request the front cache answered (it never reaches Fastify's logging). */
export function frontHitRecord(hit: FrontCacheHit): RequestRecord {
  return {
    id: requestIdOf(hit.request),
    method: hit.request.method ?? 'GET',
    route: hit.key.route,
    url: hit.request.url ?? '/',
    status: hit.status,
    durationMs: performance.now() - hit.startedAt,
    bytes: hit.bytes,
    cache: 'hit',
    ip: clientAddressOf(hit.request),
  };
}

function bytesOf(request: FastifyRequest, reply: FastifyReply): number | null {
  const length = reply.getHeader('content-length');
  if (length !== undefined) return Number(length);
  const start = (request.raw as unknown as Record<symbol, number | undefined>)[SOCKET_BYTES_AT_START];
  const socket = request.raw.socket as { bytesWritten?: number } | null;
  if (start === undefined || typeof socket?.bytesWritten !== 'number') return null;
  return socket.bytesWritten - start;
}
