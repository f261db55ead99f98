/**
 * The OpenAPI 3.1 document of the API, generated from `@forge-httpd/api-types` (its schemas and
 * route table) and served at `GET /api/v1/openapi.json`; `docs/openapi.json` is the checked-in
 * copy (`npm run openapi` rewrites it, a test fails when it is stale).
 */
import { CACHE_CONTROL, JSON_ROUTES, type JsonRoute, PARAMETER_KINDS, type ParameterKind } from '@forge-httpd/api-types';
import { binaryPaths } from './openapi-binary-paths.js';
import { livePaths } from './openapi-live-paths.js';
import { commonErrors, HEADERS, PARAMETERS, RESPONSES } from './openapi-components.js';
import { componentSchemas, jsonSchemaOf, type JsonSchema } from './json-schemas.js';

/** Path of the document itself. */
const OPENAPI_PATH = '/api/v1/openapi.json';

const DESCRIPTION = [
  'Read-only HTTP/JSON API over a Radicle-style node home: the routes of radicle-httpd (API level 6.1.0), what radicle-httpd 0.26/0.27 added, raw files, archives and git smart HTTP.',
  'Every route also answers `HEAD` and `OPTIONS` (CORS preflight); any other method on a known route is 405 with `allow: GET, HEAD`.',
  'Every answer carries `access-control-allow-origin: *` and `vary: origin, access-control-request-method, access-control-request-headers`. JSON 200 answers carry a strong `etag` (`if-none-match` → 304) and bodies of 4 KiB or more are compressed on `accept-encoding` (br, gzip; `vary` then ends in `accept-encoding`). Commit lists longer than 256 commits (a `diff/{base}/{oid}` whose base is not in the history of `oid`, `commits?since=…`/`until=…` without `perPage`) are written while they are read: compressed the same way, but without `etag`.',
  'Errors are `{"error": string, "code": status}`, except the 413 of the blob, readme and blame routes, whose body is `[]`.',
].join('\n\n');

function parameterSchema(kind: ParameterKind): JsonSchema {
  if (typeof kind !== 'string') return { type: 'string', enum: [...kind] };
  if (kind === 'uint') return { type: 'integer', minimum: 0 };
  if (kind === 'int64') return { type: 'integer', format: 'int64' };
  if (kind === 'text') return { type: 'string', minLength: 1, maxLength: 256 };
  const { pattern } = PARAMETER_KINDS[kind];
  return pattern === '' ? { type: 'string' } : { type: 'string', pattern };
}

function parameter(name: string, kind: ParameterKind, where: 'path' | 'query'): JsonSchema {
  const description = typeof kind === 'string' ? PARAMETER_KINDS[kind].description : `one of ${kind.join(', ')}`;
  return {
    name,
    in: where,
    required: where === 'path',
    ...(description === '' ? {} : { description }),
    schema: parameterSchema(kind),
  };
}

function cacheHeader(cache: JsonRoute['cache']): JsonSchema {
  if (cache === 'none') return {};
  if (cache === 'immutable with parent, else none') {
    return { 'cache-control': { description: 'Only with `parent`.', schema: { const: CACHE_CONTROL.immutable } } };
  }
  if (cache === 'immutable with commit ids, else none') {
    return {
      'cache-control': {
        description: 'Only when both sides are commit ids (a branch or tag name is revalidated).',
        schema: { const: CACHE_CONTROL.immutable },
      },
    };
  }
  return { 'cache-control': { required: true, schema: { const: CACHE_CONTROL[cache] } } };
}

/** Routes whose 413 is the blob route's `[]`. */
const BLOB_LIKE_413: readonly JsonRoute[] = [JSON_ROUTES.getBlob, JSON_ROUTES.getReadme, JSON_ROUTES.getBlame];

/** The 413 and 503 answers a route lists besides the common ones. */
function listedErrors(route: JsonRoute): JsonSchema {
  const tooLarge = route.errors.includes(413)
    ? { '413': { $ref: `#/components/responses/${BLOB_LIKE_413.includes(route) ? 'BlobTooLarge' : 'OverLimit'}` } }
    : {};
  return { ...tooLarge, ...(route.errors.includes(503) ? { '503': { $ref: '#/components/responses/Busy' } } : {}) };
}

function operation(route: JsonRoute): JsonSchema {
  const parameters = [
    ...Object.entries(route.params).map(([name, kind]) => parameter(name, kind, 'path')),
    ...Object.entries(route.query).map(([name, kind]) => parameter(name, kind, 'query')),
  ];
  return {
    get: {
      operationId: route.operationId,
      summary: route.summary,
      tags: [route.tag],
      parameters: [...parameters, { $ref: '#/components/parameters/IfNoneMatch' }, { $ref: '#/components/parameters/AcceptEncoding' }],
      responses: {
        '200': {
          description: route.summary,
          headers: { ...cacheHeader(route.cache), etag: { $ref: '#/components/headers/ETag' }, vary: { $ref: '#/components/headers/Vary' } },
          content: { 'application/json': { schema: jsonSchemaOf(route.response) } },
        },
        '304': { $ref: '#/components/responses/NotModified' },
        ...listedErrors(route),
        ...commonErrors(parameters.length > 0),
      },
    },
  };
}

function openApiOperation(): JsonSchema {
  return {
    get: {
      operationId: 'getOpenApi',
      summary: 'This document',
      tags: ['info'],
      responses: {
        '200': {
          description: 'OpenAPI 3.1 document of the API.',
          headers: { 'cache-control': { required: true, schema: { const: CACHE_CONTROL.short } }, etag: { $ref: '#/components/headers/ETag' } },
          content: {
            'application/json': {
              schema: { type: 'object', required: ['openapi', 'info', 'paths'], properties: { openapi: { const: '3.1.0' } }, additionalProperties: true },
            },
          },
        },
        '304': { $ref: '#/components/responses/NotModified' },
        ...commonErrors(false),
      },
    },
  };
}

/**
 * Builds the document.
 * @param version - the server version written in `info.version`
 * @returns a JSON-serialisable OpenAPI 3.1.0 document
 */
export function buildOpenApiDocument(version: string): JsonSchema {
  const paths: Record<string, JsonSchema> = {};
  for (const route of Object.values(JSON_ROUTES) as JsonRoute[]) paths[route.path] = operation(route);
  paths[OPENAPI_PATH] = openApiOperation();
  Object.assign(paths, binaryPaths());
  Object.assign(paths, livePaths());
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: { title: 'forge-httpd', version, description: DESCRIPTION, license: { name: 'MIT', identifier: 'MIT' } },
    servers: [{ url: '/' }],
    tags: ['info', 'node', 'repos', 'browse', 'cobs', 'raw', 'git', 'feeds', 'events'].map((name) => ({ name })),
    paths,
    components: { schemas: componentSchemas(), headers: HEADERS, parameters: PARAMETERS, responses: RESPONSES },
  };
}
