import { type LoggerService, type LogLevel, RequestMethod } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { NestFactory } from '@nestjs/core';
import type { FastifyBaseLogger } from 'fastify';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module.js';
import { divideMemoryBudget } from './config/memory-budget.js';
import { GIT_HTTP_PATHS } from './git-http/git-http.controller.js';
import { INFO_PATHS } from './info/info.controller.js';
import { RAW_PATHS } from './raw/raw.controller.js';
import { HttpCaching } from './response-cache/http-caching.js';
import { handleClientError, refuseConnect } from './platform/client-errors.js';
import { SendStallGuard } from './platform/send-stall-guard.js';
import { frameworkErrorHandler, installHttpHooks } from './platform/http-hooks.js';
import { serializeJson } from './platform/utf8-json.js';
import type { GlobalsOptions } from './globals.module.js';
import { installReadiness, Readiness } from './telemetry/readiness.js';
import { frontHitRecord, RequestLogController, SOCKET_BYTES_AT_START } from './telemetry/request-log-controller.js';
import { requestIdOf } from './telemetry/request-ids.js';
import { RequestObserver } from './telemetry/request-observer.js';
import { pino } from 'pino';

/** Every feature route lives under this prefix (docs/api.md `{base_url}`, docs/radicle-httpd.md §2.1). */
const API_PREFIX = 'api/v1';

/** Time to receive a whole request (headers and body), in ms. */
const REQUEST_TIMEOUT_MS = 30_000;
/** Time to receive a request's headers, in ms. */
const HEADERS_TIMEOUT_MS = 15_000;

/**
 * The routes outside the prefix: the informational ones (`/`, `/api`, `/api/v1` itself), raw
 * files and archives (`/raw/…`) and git over HTTP (`/{rid}.git/…`, GET and POST).
 */
const UNPREFIXED_ROUTES = [
  ...Object.values(INFO_PATHS).map((path) => ({ path, method: RequestMethod.GET })),
  // Fastify's trailing `*` is spelled `*path` in the exclusion patterns (path-to-regexp).
  ...RAW_PATHS.map((path) => ({ path: path.replace(/\*$/, '*path'), method: RequestMethod.GET })),
  ...GIT_HTTP_PATHS.map((path) => ({ path, method: RequestMethod.ALL })),
];

/** Options of {@link createApp}. */
export interface CreateAppOptions extends GlobalsOptions {
  /** Nest logger: levels to print, a logger, or false for silence (tests). */
  logger: LoggerService | LogLevel[] | false;
  /** Byte bound of the cache of rendered immutable answers (default: its share of the memory budget; 0 disables it). */
  responseCacheBytes?: number;
  /** Time to receive a whole request, in ms (default {@link REQUEST_TIMEOUT_MS}; tests shorten it). */
  requestTimeoutMs?: number;
  /** Time an answer may wait for its client to take any byte, in ms (default `SEND_STALL_TIMEOUT_MS`; tests shorten it). */
  sendStallTimeoutMs?: number;
  /** Where finished requests are logged and counted (default: a silent logger). */
  requests?: RequestObserver;
  /** What `GET /readyz` answers (default: ready once the storage index is built). */
  readiness?: Readiness;
}

/**
 * Builds and initialises the Nest application on Fastify, routes registered, not yet listening.
 * Shared by `main.ts` and the e2e tests so both run exactly the same server.
 */
export async function createApp(options: CreateAppOptions): Promise<NestFastifyApplication> {
  const requests = options.requests ?? new RequestObserver(pino({ level: 'silent' }));
  const bounds = divideMemoryBudget(options.config.memoryBudgetMiB);
  const httpCaching = new HttpCaching({
    home: options.home,
    flavour: options.config.flavour,
    maxBytes: options.responseCacheBytes ?? bounds.responseBytes,
    compressedBodyBytes: bounds.compressedBodyBytes,
    urlIndexBytes: bounds.urlIndexBytes,
    onFrontHit: (hit) => requests.record(frontHitRecord(hit)),
  });
  const adapter = new FastifyAdapter({
    // Fastify's own logger; its per-request lines are replaced by one line per request.
    loggerInstance: requests.logger,
    logController: new RequestLogController(requests, (request) => httpCaching.outcomeOf(request)),
    // Request lines carry the id themselves: no child logger per request.
    childLoggerFactory: (logger: FastifyBaseLogger) => logger,
    genReqId: (request: IncomingMessage) => {
      (request as unknown as Record<symbol, number>)[SOCKET_BYTES_AT_START] = request.socket.bytesWritten;
      return requestIdOf(request);
    },
    // `/tree/{sha}` and `/tree/{sha}/` are different routes (docs/radicle-httpd.md §2.1); long ids reach the pipes.
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 16384 },
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler: handleClientError,
    // A request must arrive whole within this time, so a client that sends part of one and
    // waits is answered 408 and cut off instead of holding a connection (and shutdown) forever.
    requestTimeout: options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
    // Node checks those timeouts every 30 s by default: a slow client would hold on that long.
    http: { connectionsCheckingInterval: Math.min(2000, (options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS) / 2) },
  });
  const fastify = adapter.getInstance();
  const routes: RegisteredRoute[] = [];
  fastify.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });
  fastify.server.headersTimeout = Math.min(HEADERS_TIMEOUT_MS, options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS);
  fastify.server.on('connect', refuseConnect);
  const sendStalls = new SendStallGuard(fastify.server, { stallMs: options.sendStallTimeoutMs, pressureBytes: bounds.unsentAnswerBytes });
  installHttpHooks(fastify);
  // File contents serialized from their own bytes (platform/utf8-json.ts). Fastify hands what
  // this returns to the onSend hooks as it is, and sends a Buffer as it sends a string.
  fastify.setReplySerializer((payload) => serializeJson(payload) as unknown as string);
  // After the CORS hooks (vary order), before Nest's own hooks (a cache hit skips them).
  httpCaching.install(adapter.getInstance());
  const readiness = options.readiness ?? new Readiness();
  installReadiness(fastify, readiness);
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot({
      config: options.config,
      home: options.home,
      httpCaching,
      gitServerLimits: options.gitServerLimits,
      sendGuard: sendStalls,
      eventStreams: options.eventStreams,
    }),
    adapter,
    { logger: options.logger, abortOnError: false },
  );
  app.setGlobalPrefix(API_PREFIX, { exclude: UNPREFIXED_ROUTES });
  await app.init();
  // The index build started with the app (ReposService); this shares it.
  readiness.track(options.home.storageIndex.ready());
  registeredRoutes.set(app, routes);
  sendStallGuards.set(app, sendStalls);
  return app;
}

/** One method and URL template (`/api/v1/repos/:rid/tree/:sha/*`) Fastify registered. */
export interface RegisteredRoute {
  method: string;
  url: string;
}

const registeredRoutes = new WeakMap<NestFastifyApplication, readonly RegisteredRoute[]>();
const sendStallGuards = new WeakMap<NestFastifyApplication, SendStallGuard>();

/** Every route of an app built by {@link createApp}, in registration order (the fuzzer's list). */
export function routesOf(app: NestFastifyApplication): readonly RegisteredRoute[] {
  return registeredRoutes.get(app) ?? [];
}

/** The guard that closes connections whose client stopped reading, of an app built by {@link createApp}. */
export function sendStallGuardOf(app: NestFastifyApplication): Pick<SendStallGuard, 'stalledConnections' | 'unsentBytes'> | undefined {
  return sendStallGuards.get(app);
}
