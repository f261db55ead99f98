import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { plainErrorBody } from './error-response.js';

/** CORS headers on every answer (docs/radicle-httpd.md §2.3, tower-http CorsLayer). */
const CORS_VARY = ['origin', 'access-control-request-method', 'access-control-request-headers'];

/** Extra headers of the answer to any OPTIONS request (docs/radicle-httpd.md §2.3). */
const PREFLIGHT_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET',
  'access-control-allow-headers': 'content-type',
  'access-control-max-age': '86400',
} as const;

/** Turns a registered route pattern (`/a/:id/*`) into a regular expression over request paths. */
export function routePatternToRegExp(pattern: string): RegExp {
  const source = pattern
    .split('/')
    .map((segment) => {
      if (segment === '*') return '.*';
      if (segment.startsWith(':')) return '[^/]+';
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^${source}$`);
}

/** The `vary` value of an answer that had none (the common case, precomputed). */
const CORS_VARY_VALUE = CORS_VARY.join(', ');

/**
 * Appends header names to `vary`, keeping the names already there (case-insensitively) and
 * their order: `origin, …` then e.g. `accept-encoding`.
 */
export function appendVary(reply: FastifyReply, ...names: string[]): void {
  const current = reply.getHeader('vary');
  const existing = typeof current === 'string' && current !== '' ? current.split(/\s*,\s*/) : [];
  const lower = existing.map((value) => value.toLowerCase());
  const missing = names.filter((name) => !lower.includes(name));
  if (missing.length > 0) reply.header('vary', [...existing, ...missing].join(', '));
}

/** Adds the CORS headers of every answer to `reply` (done in `onSend`; a hijacked answer calls it itself). */
export function appendCorsHeaders(reply: FastifyReply): void {
  reply.header('access-control-allow-origin', '*');
  const current = reply.getHeader('vary');
  if (current === undefined || current === '') reply.header('vary', CORS_VARY_VALUE);
  else if (current !== CORS_VARY_VALUE) appendVary(reply, ...CORS_VARY);
}

function requestPath(request: FastifyRequest): string {
  const url = request.raw.url ?? '/';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/**
 * Installs the protocol rules that hold for every path, before Nest registers its routes:
 * CORS on every answer; OPTIONS anywhere → 200 with the preflight headers; a method other than
 * GET/HEAD → 405 `allow: GET, HEAD` on a known route, else 404 (POST reaches the routes
 * registered for it); malformed URLs → 400 JSON.
 * HEAD on every GET route is Fastify's `exposeHeadRoutes` default.
 */
export function installHttpHooks(fastify: FastifyInstance): void {
  const getRoutes: RegExp[] = [];
  const postRoutes: RegExp[] = [];
  fastify.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.includes('GET')) getRoutes.push(routePatternToRegExp(route.url ?? route.path));
    if (methods.includes('POST')) postRoutes.push(routePatternToRegExp(route.url ?? route.path));
  });
  // Callback-style hooks: they run on every request, and a promise per hook is measurable.
  fastify.addHook('onRequest', (request, reply, done) => {
    if (request.method === 'GET' || request.method === 'HEAD') return done();
    if (request.method === 'OPTIONS') {
      reply.code(200).headers(PREFLIGHT_HEADERS).send();
      return undefined;
    }
    const path = requestPath(request);
    // The git smart-HTTP request routes (POST …/git-upload-pack) are the only non-GET routes.
    if (request.method === 'POST' && postRoutes.some((route) => route.test(path))) return done();
    if (getRoutes.some((route) => route.test(path))) {
      reply.code(405).header('allow', 'GET, HEAD').send(plainErrorBody(405));
    } else {
      reply.code(404).send(plainErrorBody(404));
    }
    return undefined;
  });
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    appendCorsHeaders(reply);
    done(null, payload);
  });
}

/**
 * Fastify's handler for requests it cannot route at all (malformed percent-encoding in the
 * path → 400, over-long parameter → 414): a JSON body that never echoes the input.
 */
export function frameworkErrorHandler(error: unknown, _request: FastifyRequest, reply: FastifyReply): void {
  appendCorsHeaders(reply);
  const status = (error as { statusCode?: unknown }).statusCode;
  if (status === 414) reply.code(414).send({ error: 'URI Too Long', code: 414 });
  else reply.code(400).send({ error: 'Invalid path: malformed URL', code: 400 });
}
