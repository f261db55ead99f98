/**
 * Reusable OpenAPI parts: headers, parameters and error responses shared by every route
 * (docs/decisions.md "Errors", docs/radicle-httpd.md §2.2–2.3; docs/development.md "HTTP caching").
 */
import type { JsonSchema } from './json-schemas.js';

const json = (schema: JsonSchema): JsonSchema => ({ 'application/json': { schema } });
const errorJson = json({ $ref: '#/components/schemas/ErrorBody' });

/** `components.headers`. */
export const HEADERS: Record<string, JsonSchema> = {
  ETag: { description: 'Strong validator of the body; send it back in `If-None-Match` for a 304.', schema: { type: 'string' } },
  Vary: {
    description:
      'Always `origin, access-control-request-method, access-control-request-headers`; `accept-encoding` is appended when the body (4 KiB or more) may be compressed.',
    schema: { type: 'string' },
  },
  AccessControlAllowOrigin: { description: 'CORS: always `*`.', schema: { const: '*' } },
  RetryAfter: { description: 'Seconds to wait before retrying.', schema: { type: 'string', pattern: '^[0-9]+$' } },
  Allow: { description: 'Methods the route answers.', schema: { const: 'GET, HEAD' } },
  ContentDisposition: { description: '`attachment; filename="<name>-<sha or ref>.<ext>"`', schema: { type: 'string' } },
  ContentSecurityPolicy: { description: 'Sandbox for untrusted content.', schema: { const: "default-src 'none'; style-src 'unsafe-inline'; sandbox" } },
  XContentTypeOptions: { schema: { const: 'nosniff' } },
};

/** `components.parameters`. */
export const PARAMETERS: Record<string, JsonSchema> = {
  IfNoneMatch: {
    name: 'if-none-match',
    in: 'header',
    required: false,
    description: 'An ETag of a previous answer: 304 when it still matches.',
    schema: { type: 'string' },
  },
  AcceptEncoding: {
    name: 'accept-encoding',
    in: 'header',
    required: false,
    description: '`br` or `gzip` compress bodies of 4 KiB or more.',
    schema: { type: 'string' },
  },
};

/** `components.responses`. */
export const RESPONSES: Record<string, JsonSchema> = {
  NotModified: { description: 'The `If-None-Match` ETag still matches: no body.', headers: { etag: { $ref: '#/components/headers/ETag' } } },
  BadRequest: { description: 'A malformed parameter; `error` names it (e.g. `Invalid rid: expected rad:z… base58 of 20 bytes`).', content: errorJson },
  NotFound: {
    description:
      '`{"error":"Not Found","code":404}`: unknown route, or an absent or private repository, commit, path or object (a private repository answers exactly like an absent one).',
    content: errorJson,
  },
  MethodNotAllowed: {
    description: 'A method other than GET, HEAD or OPTIONS on a known route (POST only on git-upload-pack).',
    headers: { allow: { $ref: '#/components/headers/Allow' } },
    content: errorJson,
  },
  Forbidden: { description: '`{"error":"Forbidden","code":403}`: pushes are refused.', content: errorJson },
  BlobTooLarge: { description: 'The file is above 4 MiB: the body is `[]`.', content: json({ $ref: '#/components/schemas/TooLargeBody' }) },
  OverLimit: { description: 'Past the server bound for this answer.', content: errorJson },
  Busy: {
    description: 'Too many git server processes run (at most 4): retry after `retry-after` seconds. No queue.',
    headers: { 'retry-after': { $ref: '#/components/headers/RetryAfter' } },
    content: errorJson,
  },
  InternalError: { description: '`{"error":"Internal Server Error","code":500}`; logged by the server.', content: errorJson },
  OtherError: { description: 'Any other error status (e.g. 408, 414, 431): `{error, code}` with `code` = the status.', content: errorJson },
};

/** The error responses every operation may answer. */
export function commonErrors(hasParameters: boolean): Record<string, JsonSchema> {
  return {
    ...(hasParameters ? { '400': { $ref: '#/components/responses/BadRequest' } } : {}),
    '404': { $ref: '#/components/responses/NotFound' },
    '405': { $ref: '#/components/responses/MethodNotAllowed' },
    '500': { $ref: '#/components/responses/InternalError' },
    default: { $ref: '#/components/responses/OtherError' },
  };
}
