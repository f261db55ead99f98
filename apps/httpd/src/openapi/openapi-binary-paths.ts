/**
 * OpenAPI paths of the routes outside the JSON layer: raw files and archives (`/raw/…`, as
 * radicle-httpd's `raw.rs`), read-only git smart HTTP (`/{rid}.git/…`, `git.rs`) and the page
 * showing this document (`/api/v1/docs`). Their bodies are bytes, streamed; errors are the usual
 * `{error, code}` JSON.
 */
import { PARAMETER_KINDS } from '@forge-httpd/api-types';
import { DOCS_CSP } from '../docs/docs-page.js';
import type { JsonSchema } from './json-schemas.js';

const ref = (name: string): JsonSchema => ({ $ref: `#/components/responses/${name}` });
const header = (name: string): JsonSchema => ({ $ref: `#/components/headers/${name}` });

function pathParam(name: string, kind: keyof typeof PARAMETER_KINDS, description?: string): JsonSchema {
  const { pattern, description: kindDescription } = PARAMETER_KINDS[kind];
  return {
    name,
    in: 'path',
    required: true,
    description: description ?? kindDescription,
    schema: pattern === '' ? { type: 'string' } : { type: 'string', pattern },
  };
}

const RID = pathParam('rid', 'rid');
const NID = pathParam('nid', 'nid', "a peer's node id: its namespace (404 unless it has signed refs)");
const PREFIX = {
  name: 'prefix',
  in: 'query',
  required: false,
  description: '`false`: entries at the archive root, without the `<name>-<sha>/` directory.',
  schema: { enum: ['true', 'false'] },
};
const BINARY = { schema: { type: 'string', contentMediaType: 'application/octet-stream' } };

const fileErrors = { '400': ref('BadRequest'), '404': ref('NotFound'), '413': ref('OverLimit'), '500': ref('InternalError'), default: ref('OtherError') };
const archiveErrors = { ...fileErrors, '503': ref('Busy') };

function rawFile(summary: string, parameters: JsonSchema[], cacheControl: string | null): JsonSchema {
  return {
    get: {
      tags: ['raw'],
      summary,
      parameters: [...parameters, { $ref: '#/components/parameters/IfNoneMatch' }],
      description: 'The file bytes; `content-type` from the name (textual types only for text, else `text/plain`), ETag = the blob id. Above 10 MiB: 413.',
      responses: {
        '200': {
          description: 'File content.',
          headers: {
            etag: header('ETag'),
            ...(cacheControl === null ? {} : { 'cache-control': { schema: { const: cacheControl } } }),
            'content-security-policy': header('ContentSecurityPolicy'),
            'x-content-type-options': header('XContentTypeOptions'),
          },
          content: { '*/*': BINARY },
        },
        '304': ref('NotModified'),
        ...fileErrors,
      },
    },
  };
}

function archive(summary: string, parameters: JsonSchema[]): JsonSchema {
  return {
    get: {
      tags: ['raw'],
      summary,
      parameters: [...parameters, PREFIX],
      description:
        '`git archive`, streamed as it is produced (no content-length). At most 4 git server processes at once; each is killed after 10 minutes or when the client hangs up.',
      responses: {
        '200': {
          description: 'The archive.',
          headers: { 'content-disposition': header('ContentDisposition') },
          content: { 'application/gzip': BINARY, 'application/x-tar': BINARY, 'application/zip': BINARY },
        },
        ...archiveErrors,
      },
    },
  };
}

/**
 * `GET /api/v1/docs`. The files the page loads (`/api/v1/docs/{file}`: a fixed list, each
 * cached for a year, any other name 404) are part of the page, not of the API, so not listed.
 */
function docsPage(): JsonSchema {
  return {
    get: {
      tags: ['info'],
      summary: 'This document in a browser',
      parameters: [{ $ref: '#/components/parameters/IfNoneMatch' }],
      description:
        'An HTML page rendering this document with Swagger UI, served by this server with the page (nothing is loaded from elsewhere); every route can be tried from it against this server.',
      responses: {
        '200': {
          description: 'The page.',
          headers: {
            etag: header('ETag'),
            'cache-control': { schema: { const: 'no-cache' } },
            'content-security-policy': { schema: { const: DOCS_CSP } },
            'x-content-type-options': header('XContentTypeOptions'),
          },
          content: { 'text/html': { schema: { type: 'string' } } },
        },
        '304': ref('NotModified'),
        '500': ref('InternalError'),
        default: ref('OtherError'),
      },
    },
  };
}

const NO_CACHE = { 'cache-control': { schema: { const: 'no-cache, max-age=0, must-revalidate' } } };

function infoRefs(parameters: JsonSchema[]): JsonSchema {
  return {
    get: {
      tags: ['git'],
      summary: 'Ref advertisement (git smart HTTP, v0 and v2), or the dumb ref list without `service`',
      parameters: [...parameters, { name: 'service', in: 'query', required: false, schema: { const: 'git-upload-pack' } }],
      description:
        "The repository's top-level refs (canonical branches and tags, `HEAD`, `refs/rad/id`); `refs/namespaces/` are hidden. `git-protocol: version=2` selects protocol v2. Without `service`: the dumb protocol's list as `git http-backend` writes it, `{oid}\\t{ref}` lines in ref-name order, an annotated tag followed by `{peeled oid}\\t{ref}^{}`.",
      responses: {
        '200': {
          description: 'pkt-line advertisement (with `service`), or the text ref list (without).',
          headers: NO_CACHE,
          content: { 'application/x-git-upload-pack-advertisement': BINARY, 'text/plain': { schema: { type: 'string' } } },
        },
        '403': ref('Forbidden'),
        ...archiveErrors,
      },
    },
  };
}

function uploadPack(parameters: JsonSchema[]): JsonSchema {
  return {
    post: {
      tags: ['git'],
      summary: 'Fetch (git-upload-pack --stateless-rpc)',
      parameters,
      description:
        'Clone and fetch, by ref or commit id, `--depth`, `--filter=blob:none`. The request body may be gzip (`content-encoding: gzip`); past 16 MiB after gunzip: 413. The pack is streamed.',
      requestBody: { required: true, content: { 'application/x-git-upload-pack-request': BINARY } },
      responses: {
        '200': { description: 'pkt-line result and pack.', headers: NO_CACHE, content: { 'application/x-git-upload-pack-result': BINARY } },
        ...archiveErrors,
      },
    },
  };
}

function receivePack(parameters: JsonSchema[]): JsonSchema {
  return {
    post: { tags: ['git'], summary: 'Push: refused', parameters, responses: { '403': ref('Forbidden'), '404': ref('NotFound'), default: ref('OtherError') } },
  };
}

const ARCHIVE_NAME = {
  name: 'archive',
  in: 'path',
  required: true,
  description: '`<sha>.tar.gz`, `<sha>.tar` or `<sha>.zip`',
  schema: { type: 'string', pattern: '^[0-9a-fA-F]{40}\\.(tar\\.gz|tar|zip)$' },
};
const REF = {
  name: 'ref',
  in: 'path',
  required: true,
  description: 'a branch or tag name (may contain `/`), optionally ending in `.tar.gz`, `.tar` or `.zip` (default `.tar.gz`)',
  schema: { type: 'string' },
};
const SHA = pathParam('sha', 'oid');

/** Paths of the docs page and of the raw and git routes, keyed by OpenAPI template. */
export function binaryPaths(): Record<string, JsonSchema> {
  return {
    '/api/v1/docs': docsPage(),
    '/raw/{rid}/{sha}/{path}': rawFile('A file at a commit', [RID, SHA, pathParam('path', 'path')], 'public, max-age=31536000, immutable'),
    '/raw/{rid}/head/{path}': rawFile('A file at the canonical head', [RID, pathParam('path', 'path')], null),
    '/raw/{rid}/blobs/{oid}': rawFile('A blob by id', [RID, pathParam('oid', 'oid')], 'public, max-age=31536000, immutable'),
    '/raw/{rid}/{archive}': archive('Archive of a commit', [RID, ARCHIVE_NAME]),
    '/raw/{rid}/archive/{ref}': archive('Archive of a branch or tag', [RID, REF]),
    '/{rid}.git/info/refs': infoRefs([RID]),
    '/{rid}.git/{nid}/info/refs': infoRefs([RID, NID]),
    '/{rid}.git/git-upload-pack': uploadPack([RID]),
    '/{rid}.git/{nid}/git-upload-pack': uploadPack([RID, NID]),
    '/{rid}.git/git-receive-pack': receivePack([RID]),
    '/{rid}.git/{nid}/git-receive-pack': receivePack([RID, NID]),
  };
}
