/**
 * Reusable OpenAPI parts: headers, parameters and error responses shared by every route; the
 * error responses are described from the app's error table (docs/decisions.md "Errors",
 * docs/radicle-httpd.md §2.2–2.3; docs/development.md "HTTP caching").
 */
import type { ErrorCode } from '@forge-httpd/identity';
import { ERROR_TABLE } from '../platform/error-table.js';
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

/** Component names of the headers error answers carry. */
const HEADER_COMPONENTS: Readonly<Record<string, string>> = { 'retry-after': 'RetryAfter' };

/** An error response described by the error table's row of `code`. */
function tableResponse(code: ErrorCode): JsonSchema {
  const { description, headers } = ERROR_TABLE[code];
  const documented = Object.fromEntries(Object.keys(headers).map((name) => [name, { $ref: `#/components/headers/${HEADER_COMPONENTS[name]}` }]));
  return { description, ...(Object.keys(documented).length > 0 ? { headers: documented } : {}), content: errorJson };
}

/** `components.responses`. */
export const RESPONSES: Record<string, JsonSchema> = {
  NotModified: { description: 'The `If-None-Match` ETag still matches: no body.', headers: { etag: { $ref: '#/components/headers/ETag' } } },
  BadRequest: tableResponse('invalid-input'),
  NotFound: tableResponse('not-found'),
  MethodNotAllowed: {
    description: 'A method other than GET, HEAD or OPTIONS on a known route (POST only on git-upload-pack).',
    headers: { allow: { $ref: '#/components/headers/Allow' } },
    content: errorJson,
  },
  Forbidden: tableResponse('forbidden'),
  BlobTooLarge: { description: 'The file is above 4 MiB: the body is `[]`.', content: json({ $ref: '#/components/schemas/TooLargeBody' }) },
  OverLimit: tableResponse('too-large'),
  Busy: tableResponse('busy'),
  InternalError: tableResponse('invalid-data'),
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
