import { Readable } from 'node:stream';
import type { NodeHome } from '@forge-httpd/storage';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { BINARY_ROUTE_CONFIG } from '../platform/binary-answer.js';
import { CACHEABLE_ROUTE_CONFIG, type CacheableRouteOptions, type CacheKey, CacheKeyBuilder, dependsOnMovingState } from './cacheable-route.js';
import { COMPRESSION_MIN_BYTES } from '../platform/compression.js';
import { computeEtag } from '../platform/etag.js';
import { encodeUtf8 } from './text-encoding.js';
import { FrontCache, type FrontCacheHit, type Freshness } from './front-cache.js';
import { appendVary } from '../platform/http-hooks.js';
import { Representation } from './representation.js';
import { CompressedBodies, type CompressedBodyStats, DEFAULT_COMPRESSED_BODY_BYTES } from './compressed-bodies.js';
import type { RepositoryAccess } from '../repository-access/repository-access.service.js';
import { type RefsState, RepositoryStateProbe } from './repository-state.js';
import { type CachedResponse, DEFAULT_RESPONSE_CACHE_BYTES, ResponseCache, type ResponseCacheStats } from './response-cache.js';
import { VisibilityGate } from './visibility-gate.js';

/** Options of {@link HttpCaching}. */
export interface HttpCachingOptions {
  home: NodeHome;
  /** Protocol flavour served (part of every key). */
  flavour: string;
  /** Byte bound of the response cache (default 64 MiB; 0 disables it, ETags and compression stay). */
  maxBytes?: number;
  /** Byte bound of the compressed bodies of answers not cached, looked up by ETag (default 1 MiB; 0 keeps none). */
  compressedBodyBytes?: number;
  /** Byte bound of the front cache's URL index (default 8 MiB). */
  urlIndexBytes?: number;
  /** Told of requests the front cache answers (they never reach Fastify's logging). */
  onFrontHit?: (hit: FrontCacheHit) => void;
}

/** A request to a cacheable route that runs its handler; its answer may be stored. */
interface Miss {
  readonly key: CacheKey;
  /** Stamp of the state the answer depends on, read before the handler ran ('' = none); null = do not store (unsettled). */
  readonly stateStamp: string | null;
  /** Set for the first of concurrent identical misses: settles the others' wait. */
  settle?: (entry: CachedResponse | null) => void;
}

const MISS = Symbol('forgeCacheMiss');
const HIT = Symbol('forgeCacheHit');
type CachingRequest = FastifyRequest & { [MISS]?: Miss; [HIT]?: true };
type Done = HookHandlerDoneFunction;
type SendDone = (error: Error | null, payload?: unknown) => void;

/** Longest wait of identical requests for the first one's answer before running their own handler. */
const LEADER_TIMEOUT_MS = 60_000;

/** Headers of an answer that are not replayed from the cache (set per request, or by Fastify). */
const PER_REQUEST_HEADERS = new Set(['content-length', 'etag', 'content-encoding']);

/**
 * HTTP caching for every answer: strong ETags and 304s, gzip/br compression off the event
 * loop, and a byte-bounded cache of rendered answers of routes marked
 * {@link CacheableResponse}. A hit is answered without the Nest pipeline, handler or
 * serialisation, once {@link VisibilityGate} has confirmed the repository is still public:
 * by the {@link FrontCache} before Fastify when its exact URL was seen before and nothing has
 * to be waited for, else from the `onRequest` hook. Concurrent misses of one key wait for the
 * first instead of all running the handler.
 */
export class HttpCaching {
  readonly cache: ResponseCache;
  private readonly probe: RepositoryStateProbe;
  private readonly gate: VisibilityGate;
  private readonly keys: CacheKeyBuilder;
  private readonly representation: Representation;
  private readonly compressedBodies: CompressedBodies;
  private readonly pending = new Map<string, Promise<CachedResponse | null>>();
  private readonly front: FrontCache;

  constructor(options: HttpCachingOptions) {
    const { home } = options;
    this.probe = new RepositoryStateProbe({ now: home.now, databasesStamp: () => `${home.nodeDb.changeStamp()}/${home.policiesDb.changeStamp()}` });
    this.gate = new VisibilityGate(this.probe);
    this.cache = new ResponseCache(options.maxBytes ?? DEFAULT_RESPONSE_CACHE_BYTES);
    this.keys = new CacheKeyBuilder({ flavour: options.flavour, storageRoot: options.home.storage.root });
    this.compressedBodies = new CompressedBodies(options.compressedBodyBytes ?? DEFAULT_COMPRESSED_BODY_BYTES);
    this.representation = new Representation(this.cache, this.compressedBodies);
    this.front = new FrontCache({
      cache: this.cache,
      freshness: (key, entry) => this.freshness(key, entry),
      served: options.onFrontHit,
      maxIndexBytes: options.urlIndexBytes,
    });
    this.cache.onRemove((entry) => this.front.forget(entry));
  }

  /** Lets the visibility gate use the application's RepositoryAccess. */
  bind(access: RepositoryAccess): void {
    this.gate.bind(access);
  }

  /** Counters of the response cache; `frontHits` = hits answered in front of Fastify. */
  stats(): ResponseCacheStats & { frontHits: number } {
    return { ...this.cache.stats(), frontHits: this.front.served };
  }

  /** Sizes and hits of the compressed bodies of answers not cached (see {@link CompressedBodies}). */
  compressedBodyStats(): CompressedBodyStats {
    return this.compressedBodies.stats();
  }

  /** Whether the response cache answered `request` (after its answer), for the request log. */
  outcomeOf(request: FastifyRequest): 'hit' | 'miss' | null {
    const caching = request as CachingRequest;
    if (caching[HIT] === true) return 'hit';
    return caching[MISS] === undefined ? null : 'miss';
  }

  /**
   * Adds the hooks (call after the CORS hooks so `vary: accept-encoding` comes last) and the
   * front cache on Fastify's HTTP server.
   */
  install(fastify: FastifyInstance): void {
    if (this.cache.maxBytes > 0) this.front.install(fastify.server);
    fastify.addHook('preClose', (done) => {
      this.front.close();
      done();
    });
    fastify.addHook('onRequest', (request, reply, done) => this.onRequest(request, reply, done));
    // No onResponse/onRequestAbort hooks: Fastify would add listeners to every request for them.
    fastify.addHook('onSend', (request, reply, payload, done) => this.onSend({ request, reply, payload, done }));
  }

  private onRequest(request: CachingRequest, reply: FastifyReply, done: Done): void {
    const options = request.routeOptions.config[CACHEABLE_ROUTE_CONFIG as never] as CacheableRouteOptions | undefined;
    if (options === undefined || this.cache.maxBytes === 0) return done();
    if (request.method !== 'GET' && request.method !== 'HEAD') return done();
    const key = this.keys.keyOf(request, options);
    if (key === null) return done();
    const entry = this.cache.get(key.text);
    if (entry !== undefined) return this.serve({ request, reply, key, entry, done });
    const running = this.pending.get(key.text);
    if (running === undefined) return this.beginMiss({ request, key, leader: true, done });
    this.cache.noteAskedAgain(key.text);
    running.then((stored) => {
      if (stored === null) this.beginMiss({ request, key, leader: false, done });
      else this.serve({ request, reply, key, entry: stored, done });
    }, done);
  }

  /**
   * Whether `entry` may be sent now: its repository must still be public (private == absent)
   * and what the answer was rendered from (see {@link stateOf}) unchanged since.
   */
  private freshness(key: CacheKey, entry: CachedResponse): Freshness | Promise<Freshness> {
    const visible = this.gate.isPublic(key.rid, key.gitDir);
    if (visible === false) return 'pass';
    if (visible !== true) return visible.then((ok) => (ok ? this.refsFreshness(key, entry) : 'pass'));
    return this.refsFreshness(key, entry);
  }

  private refsFreshness(key: CacheKey, entry: CachedResponse): Freshness {
    const state = this.stateOf(key);
    if (state === null) return 'serve';
    return state.settled && state.stamp === entry.stateStamp ? 'serve' : 'stale';
  }

  /**
   * The state of what a route's answer depends on besides its immutable parameters: the
   * branches (commit detail, tree stats), or issues and patches with what judges and names
   * them; null for answers that depend on nothing that moves.
   */
  private stateOf(key: CacheKey): RefsState | null {
    if (key.options.dependsOnBranches === true) return this.probe.branchesState(key.gitDir);
    if (key.options.dependsOnCobs === true) return this.probe.cobsState(key.gitDir);
    return null;
  }

  /** Replays `entry` when fresh; renders again when stale; lets the handler answer otherwise. */
  private serve(hit: { request: CachingRequest; reply: FastifyReply; key: CacheKey; entry: CachedResponse; done: Done }): void {
    const fresh = this.freshness(hit.key, hit.entry);
    if (typeof fresh !== 'string') {
      fresh.then((later) => this.replay(hit, later), hit.done);
      return;
    }
    this.replay(hit, fresh);
  }

  private replay(hit: { request: CachingRequest; reply: FastifyReply; key: CacheKey; entry: CachedResponse; done: Done }, fresh: Freshness): void {
    const { request, reply, key, entry, done } = hit;
    if (fresh === 'pass') return done();
    if (fresh === 'stale') {
      this.cache.delete(key.text);
      return this.beginMiss({ request, key, leader: true, done });
    }
    request[HIT] = true;
    this.front.remember({ url: request.raw.url, key, entry });
    reply.code(entry.status).headers(entry.headers);
    const payload = this.representation.select({ request, reply, body: entry.body, etag: entry.etag, entry });
    if (Buffer.isBuffer(payload)) reply.send(payload);
    else payload.then((bytes) => reply.send(bytes), done);
  }

  private beginMiss(miss: { request: CachingRequest; key: CacheKey; leader: boolean; done: Done }): void {
    const { key } = miss;
    // Taken before the handler reads: a change while it runs leaves the stamp behind the
    // answer, so the next request finds it stale rather than the answer stale under a new stamp.
    const before = this.stateOf(key);
    const state: Miss = { key, stateStamp: before === null ? '' : before.settled ? before.stamp : null };
    if (miss.leader && !this.pending.has(key.text)) {
      this.pending.set(
        key.text,
        new Promise((resolve) => {
          // Every answer passes onSend, which settles; the timer only guards against a lost one.
          const guard = setTimeout(() => state.settle?.(null), LEADER_TIMEOUT_MS).unref();
          state.settle = (entry) => {
            clearTimeout(guard);
            state.settle = undefined;
            this.pending.delete(key.text);
            resolve(entry);
          };
        }),
      );
    }
    miss.request[MISS] = state;
    miss.done();
  }

  private onSend(send: { request: CachingRequest; reply: FastifyReply; payload: unknown; done: SendDone }): void {
    const { request, reply, payload, done } = send;
    if (request[HIT] === true) return done(null, this.representation.conditional({ request, reply, payload }));
    // Raw files, archives, git protocol: their own validators, never buffered nor compressed here.
    if (request.routeOptions.config[BINARY_ROUTE_CONFIG as never] === true) return done(null, payload);
    const miss = request[MISS];
    if (payload instanceof Readable) {
      // A JSON answer written as it is produced (platform/streamed-json.ts): never stored.
      miss?.settle?.(null);
      const streamedJson = isJson(reply.getHeader('content-type')) && reply.statusCode === 200;
      return done(null, streamedJson ? this.representation.encodeStream({ request, reply, stream: payload }) : payload);
    }
    const json = isJson(reply.getHeader('content-type')) && (typeof payload === 'string' || Buffer.isBuffer(payload));
    if (!json || reply.statusCode !== 200) {
      // A 413 for a too large blob is as immutable as the blob; it has no ETag and is not compressed.
      const stored = json && reply.statusCode === 413 && miss !== undefined ? this.store({ miss, reply, body: toBuffer(payload), etag: null }) : null;
      miss?.settle?.(stored);
      return done(null, payload);
    }
    const encoded = typeof payload === 'string' ? encodeUtf8(payload) : payload;
    if (Buffer.isBuffer(encoded)) this.finishJson({ request, reply, body: encoded, miss, done });
    else encoded.then((body) => this.finishJson({ request, reply, body, miss, done }), done);
  }

  /** ETag, cache entry, coding and conditional answer of a 200 JSON body. */
  private finishJson(answer: { request: CachingRequest; reply: FastifyReply; body: Buffer; miss: Miss | undefined; done: SendDone }): void {
    const { request, reply, body, miss, done } = answer;
    const finish = (etag: string): void => {
      if (body.length >= COMPRESSION_MIN_BYTES) appendVary(reply, 'accept-encoding');
      const entry = miss === undefined ? null : this.store({ miss, reply, body, etag });
      miss?.settle?.(entry);
      const selected = this.representation.select({ request, reply, body, etag, entry });
      if (Buffer.isBuffer(selected)) done(null, this.representation.conditional({ request, reply, payload: selected }));
      else selected.then((payload) => done(null, this.representation.conditional({ request, reply, payload })), done);
    };
    const etag = computeEtag(body);
    if (typeof etag === 'string') finish(etag);
    else etag.then(finish, done);
  }

  private store(answer: { miss: Miss; reply: FastifyReply; body: Buffer; etag: string | null }): CachedResponse | null {
    const { miss, reply, body, etag } = answer;
    if (miss.stateStamp === null) return null;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (!PER_REQUEST_HEADERS.has(name) && value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
    }
    const stateStamp = dependsOnMovingState(miss.key.options) ? miss.stateStamp : null;
    const entry = this.cache.set({ key: miss.key.text, status: reply.statusCode, headers, body, etag, stateStamp });
    if (entry !== null) this.front.remember({ url: reply.request.raw.url, key: miss.key, entry });
    return entry;
  }
}

function isJson(contentType: unknown): boolean {
  return typeof contentType === 'string' && contentType.startsWith('application/json');
}

function toBuffer(payload: unknown): Buffer {
  return Buffer.isBuffer(payload) ? payload : Buffer.from(String(payload));
}
