import path from 'node:path';
import { BoundedCache } from '@forge-httpd/bounded-cache';
import { parseRid, type Rid, ridDirectoryName } from '@forge-httpd/identity';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import { parseQuery, type QuerySchema } from '../platform/query.js';

/** How a route's answers may be cached (see {@link CacheableResponse}). */
export interface CacheableRouteOptions {
  /**
   * The answer also lists or counts the repository's top-level branches (commit detail
   * `branches`, tree stats `branches`): a hit is served only while those refs are unchanged.
   */
  readonly dependsOnBranches?: boolean;
  /**
   * The answer is evaluated from the repository's issues or patches (any namespace's refs),
   * judged by its identity and naming authors from the node's databases: a hit is served only
   * while all of those are unchanged.
   */
  readonly dependsOnCobs?: boolean;
  /** Query keys that shape the answer, parsed exactly as the handler's QueryPipe parses them. */
  readonly query?: QuerySchema;
  /** Cache only answers to requests that carry this query key. */
  readonly requiredQuery?: string;
}

/** Whether answers of a route are kept with a stamp of what may change under them. */
export function dependsOnMovingState(options: CacheableRouteOptions): boolean {
  return options.dependsOnBranches === true || options.dependsOnCobs === true;
}

/** Key of the Fastify route config entry {@link CacheableResponse} writes. */
export const CACHEABLE_ROUTE_CONFIG = 'forgeCacheableResponse';

/**
 * Marks a `/repos/{rid}/…` route whose successful answer is a function of the repository and
 * immutable, commit-addressed parameters (and of the state its options name): the platform
 * then keeps the rendered bytes and serves repeats without running the handler (after checking
 * the repository is still public and that state unchanged).
 */
export const CacheableResponse = (options: CacheableRouteOptions = {}): MethodDecorator => RouteConfig({ [CACHEABLE_ROUTE_CONFIG]: options });

/** The cache identity of one request to a cacheable route. */
export interface CacheKey {
  readonly text: string;
  /** The route pattern (`/api/v1/repos/:rid/tree/:sha/*`), for logs and metrics. */
  readonly route: string;
  readonly rid: Rid;
  /** The repository's folder in storage (for the state probes). */
  readonly gitDir: string;
  readonly options: CacheableRouteOptions;
}

const OID = /^[0-9a-fA-F]{40}$/;
/** RID texts whose parse is remembered (least recently used forgotten first). */
const MAX_REMEMBERED_RIDS = 4096;

/**
 * Builds cache keys: flavour, route pattern, canonical RID, then every other path parameter
 * (object ids lower-cased, the wildcard path as decoded) and the normalised query. Requests
 * whose parameters the handler would reject get no key: they go to the handler for their 400.
 */
export class CacheKeyBuilder {
  private readonly rids = new BoundedCache<string, { rid: Rid; gitDir: string } | null>({ maxEntries: MAX_REMEMBERED_RIDS });

  constructor(private readonly scope: { flavour: string; storageRoot: string }) {}

  /** The key of `request`, or null when it must not be cached. */
  keyOf(request: FastifyRequest, options: CacheableRouteOptions): CacheKey | null {
    const params = request.params as Record<string, string>;
    const repository = this.repository(params['rid']);
    if (repository === null) return null;
    const route = request.routeOptions.url ?? '';
    const parts = [this.scope.flavour, route, repository.rid];
    for (const [name, value] of Object.entries(params)) {
      if (name === 'rid') continue;
      if (name === '*') parts.push(value);
      else if (OID.test(value)) parts.push(value.toLowerCase());
      else return null;
    }
    if (options.query !== undefined) {
      const query = normalisedQuery(request.query, options);
      if (query === null) return null;
      parts.push(query);
    }
    return { text: parts.join('\0'), route, ...repository, options };
  }

  private repository(text: string | undefined): { rid: Rid; gitDir: string } | null {
    if (text === undefined) return null;
    return this.rids.getOrCompute(text, () => {
      try {
        const rid = parseRid(text);
        return { rid, gitDir: path.join(this.scope.storageRoot, ridDirectoryName(rid)) };
      } catch {
        return null;
      }
    });
  }
}

function normalisedQuery(query: unknown, options: CacheableRouteOptions): string | null {
  const schema = options.query ?? {};
  let parsed: Record<string, unknown>;
  try {
    parsed = parseQuery(query, schema);
  } catch {
    return null;
  }
  if (options.requiredQuery !== undefined && parsed[options.requiredQuery] === undefined) return null;
  return (
    Object.keys(schema)
      // Parsed query values are strings and numbers only (QueryPipe's schema).
      .map((key) => (parsed[key] === undefined ? '' : String(parsed[key] as string | number)))
      .join('\0')
  );
}
