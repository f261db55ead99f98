import type { IncomingMessage, OutgoingHttpHeaders, Server, ServerResponse } from 'node:http';
import { BoundedCache } from '@forge-httpd/bounded-cache';
import type { CacheKey } from './cacheable-route.js';
import { COMPRESSION_MIN_BYTES, type ContentCoding, negotiateEncoding } from '../platform/compression.js';
import { etagForCoding, ifNoneMatchMatches } from '../platform/etag.js';
import type { CachedResponse, ResponseCache } from './response-cache.js';

/** Whether a cached answer may be sent now: yes; no, render again; no, let the handler answer. */
export type Freshness = 'serve' | 'stale' | 'pass';

/** What the front cache needs from {@link HttpCaching}. */
export interface FrontCacheDependencies {
  readonly cache: ResponseCache;
  /** Visibility and refs check of an entry (the same one the Fastify-level path uses). */
  freshness(key: CacheKey, entry: CachedResponse): Freshness | Promise<Freshness>;
  /** Told of each request answered here, once its answer is written (logs, metrics). */
  served?(hit: FrontCacheHit): void;
  /** Bound of the URL index in bytes (default {@link DEFAULT_INDEX_BYTES}). */
  readonly maxIndexBytes?: number;
}

/** A request the front cache answered. */
export interface FrontCacheHit {
  readonly request: IncomingMessage;
  readonly key: CacheKey;
  readonly status: number;
  /** Body bytes sent (0 for a 304 or HEAD). */
  readonly bytes: number;
  /** `performance.now()` when the request reached the front cache. */
  readonly startedAt: number;
}

interface Indexed {
  readonly key: CacheKey;
  readonly entry: CachedResponse;
}

/** Default bound of the URL index (URL characters plus a per-URL allowance), least recently used URLs dropped first. */
const DEFAULT_INDEX_BYTES = 8 * 1024 * 1024;
const PER_URL_BYTES = 128;

/**
 * The hit path in front of Fastify: a request whose exact URL (and method GET/HEAD) already
 * produced a cached answer through the router is answered straight from Node's `request`
 * event — no routing, hooks, Nest or Fastify reply — when the answer can be sent at once
 * (visible and fresh per {@link FrontCacheDependencies.freshness} without waiting, variant
 * already compressed). Anything else goes on to Fastify unchanged, where the same cache
 * serves it. The bytes and headers are those the Fastify path sends for the same entry; Node
 * adds `date`, `connection` and `keep-alive` in both cases.
 */
export class FrontCache {
  private readonly index: BoundedCache<string, Indexed>;
  /** URLs of each indexed entry, so an entry leaving the cache leaves the index too. */
  private readonly urls = new WeakMap<CachedResponse, Set<string>>();
  private closing = false;
  /** Requests answered here (also counted as cache hits). */
  served = 0;

  constructor(private readonly deps: FrontCacheDependencies) {
    this.index = new BoundedCache({
      maxWeight: deps.maxIndexBytes ?? DEFAULT_INDEX_BYTES,
      weigh: (_indexed, url) => url.length * 2 + PER_URL_BYTES,
      onRemove: (url, indexed) => this.urls.get(indexed.entry)?.delete(url),
    });
  }

  /**
   * Puts itself before Fastify's request listener of `server`; does nothing (and returns false)
   * when the server does not have exactly one, as Fastify's HTTP/1 server does.
   */
  install(server: Server): boolean {
    const listeners = server.listeners('request');
    const [fastify] = listeners;
    if (listeners.length !== 1 || fastify === undefined) return false;
    server.removeListener('request', fastify as never);
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      if (!this.tryServe(request, response)) (fastify as (req: IncomingMessage, res: ServerResponse) => void)(request, response);
    });
    return true;
  }

  /** From now on requests go to Fastify only (it answers 503 while closing). */
  close(): void {
    this.closing = true;
    this.index.clear();
  }

  /** Remembers that `url` was answered with `entry` through the router. */
  remember(seen: { url: string | undefined; key: CacheKey; entry: CachedResponse }): void {
    const { url, key, entry } = seen;
    if (url === undefined || this.closing || this.index.peek(url)?.entry === entry) return;
    if (!this.index.set(url, { key, entry })) return;
    const urls = this.urls.get(entry);
    if (urls === undefined) this.urls.set(entry, new Set([url]));
    else urls.add(url);
  }

  /** Drops the URLs of an entry that left the cache (the index must not keep its bytes alive). */
  forget(entry: CachedResponse): void {
    const urls = this.urls.get(entry);
    this.urls.delete(entry);
    for (const url of urls ?? []) if (this.index.peek(url)?.entry === entry) this.index.delete(url);
  }

  private tryServe(request: IncomingMessage, response: ServerResponse): boolean {
    if (this.closing || (request.method !== 'GET' && request.method !== 'HEAD')) return false;
    const known = request.url === undefined ? undefined : this.index.get(request.url);
    if (known === undefined) return false;
    const startedAt = performance.now();
    const { entry } = known;
    if (this.deps.freshness(known.key, entry) !== 'serve') return false;
    const coding = entry.body.length < COMPRESSION_MIN_BYTES ? null : negotiateEncoding(request.headers['accept-encoding']);
    const body = coding === null ? entry.body : entry.variants.get(coding);
    if (!Buffer.isBuffer(body)) return false;
    if (!this.deps.cache.touch(entry)) return false;
    this.served += 1;
    const ifNoneMatch = request.headers['if-none-match'];
    if (entry.etag !== null && ifNoneMatch !== undefined && ifNoneMatchMatches(ifNoneMatch, entry.etag)) {
      response.writeHead(304, notModifiedHeaders(entry, { coding, length: request.method === 'HEAD' ? body.length : null }));
      response.end();
      this.deps.served?.({ request, key: known.key, status: 304, bytes: 0, startedAt });
      return true;
    }
    response.writeHead(entry.status, sentHeaders(entry, { coding, length: body.length }));
    response.end(body);
    this.deps.served?.({ request, key: known.key, status: entry.status, bytes: request.method === 'HEAD' ? 0 : body.length, startedAt });
    return true;
  }
}

/** The headers the Fastify path sends for an entry in a coding, in the same order (memoised). */
function sentHeaders(entry: CachedResponse, sent: { coding: ContentCoding | null; length: number }): OutgoingHttpHeaders {
  const { coding, length } = sent;
  const id = coding ?? 'identity';
  const known = entry.wire.get(id);
  if (known !== undefined) return known;
  const headers: OutgoingHttpHeaders = { ...entry.headers };
  if (entry.etag !== null) headers['etag'] = etagForCoding(entry.etag, coding);
  if (coding !== null) headers['content-encoding'] = coding;
  headers['content-length'] = String(length);
  entry.wire.set(id, headers);
  return headers;
}

/** The headers of the Fastify path's 304: no content-type; HEAD keeps the length and coding of the 200. */
function notModifiedHeaders(entry: CachedResponse, sent: { coding: ContentCoding | null; length: number | null }): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = { ...entry.headers };
  delete headers['content-type'];
  headers['etag'] = etagForCoding(entry.etag ?? '""', sent.coding);
  if (sent.length !== null) {
    if (sent.coding !== null) headers['content-encoding'] = sent.coding;
    headers['content-length'] = String(sent.length);
  }
  return headers;
}
