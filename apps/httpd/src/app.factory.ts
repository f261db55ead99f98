import { type LoggerService, type LogLevel, RequestMethod } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module.js';
import { GIT_HTTP_PATHS } from './git-http/git-http.controller.js';
import { INFO_PATHS } from './info/info.controller.js';
import { RAW_PATHS } from './raw/raw.controller.js';
import { HttpCaching } from './platform/http-caching.js';
import { handleClientError, refuseConnect } from './platform/client-errors.js';
import { frameworkErrorHandler, installHttpHooks } from './platform/http-hooks.js';
import type { PlatformOptions } from './platform/platform.module.js';

/** Every feature route lives under this prefix (api.md `{base_url}`, B §2.1). */
export const API_PREFIX = 'api/v1';

/** Time to receive a whole request (headers and body), in ms. */
export const REQUEST_TIMEOUT_MS = 30_000;
/** Time to receive a request's headers, in ms. */
export const HEADERS_TIMEOUT_MS = 15_000;

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
export interface CreateAppOptions extends PlatformOptions {
  /** Nest logger: levels to print, a logger, or false for silence (tests). */
  logger: LoggerService | LogLevel[] | false;
  /** Byte bound of the cache of rendered immutable answers (default 64 MiB; 0 disables it). */
  responseCacheBytes?: number;
  /** Time to receive a whole request, in ms (default {@link REQUEST_TIMEOUT_MS}; tests shorten it). */
  requestTimeoutMs?: number;
}

/**
 * Builds and initialises the Nest application on Fastify, routes registered, not yet listening.
 * Shared by `main.ts` and the e2e tests so both run exactly the same server.
 */
export async function createApp(options: CreateAppOptions): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    logger: false,
    // `/tree/{sha}` and `/tree/{sha}/` are different routes (B §2.1); long ids reach the pipes.
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
  installHttpHooks(fastify);
  // After the CORS hooks (vary order), before Nest's own hooks (a cache hit skips them).
  const httpCaching = new HttpCaching({ home: options.home, flavour: options.config.flavour, maxBytes: options.responseCacheBytes });
  httpCaching.install(adapter.getInstance());
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot({ config: options.config, home: options.home, httpCaching, gitServerLimits: options.gitServerLimits }),
    adapter,
    { logger: options.logger, abortOnError: false },
  );
  app.setGlobalPrefix(API_PREFIX, { exclude: UNPREFIXED_ROUTES });
  await app.init();
  registeredRoutes.set(app, routes);
  return app;
}

/** One method and URL template (`/api/v1/repos/:rid/tree/:sha/*`) Fastify registered. */
export interface RegisteredRoute {
  method: string;
  url: string;
}

const registeredRoutes = new WeakMap<NestFastifyApplication, readonly RegisteredRoute[]>();

/** Every route of an app built by {@link createApp}, in registration order (the fuzzer's list). */
export function routesOf(app: NestFastifyApplication): readonly RegisteredRoute[] {
  return registeredRoutes.get(app) ?? [];
}
