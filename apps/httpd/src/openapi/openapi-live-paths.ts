/**
 * OpenAPI paths of the answers that are not JSON: the Atom feeds of a repository and the
 * Server-Sent Event streams (docs/api.md "Feeds", "Live updates"). Their errors are the usual
 * `{error, code}` JSON; the event payloads are named schemas (`RefsEvent`, `CobEvent`, `RepoEvent`).
 */
import { PARAMETER_KINDS } from '@forge-httpd/api-types';
import type { JsonSchema } from './json-schemas.js';

const ref = (name: string): JsonSchema => ({ $ref: `#/components/responses/${name}` });
const RID = {
  name: 'rid',
  in: 'path',
  required: true,
  description: PARAMETER_KINDS.rid.description,
  schema: { type: 'string', pattern: PARAMETER_KINDS.rid.pattern },
};
const errors = { '400': ref('BadRequest'), '404': ref('NotFound'), '405': ref('MethodNotAllowed'), '500': ref('InternalError'), default: ref('OtherError') };

const FEED_DESCRIPTIONS = {
  commits: 'The newest 50 commits of the default branch, newest first.',
  issues: 'The 50 issues with the latest activity (opening, comment, edit), latest first.',
  patches: 'The 50 patches with the latest activity (opening, revision, comment, edit, review, merge), latest first.',
} as const;

function feed(kind: keyof typeof FEED_DESCRIPTIONS): JsonSchema {
  return {
    get: {
      tags: ['feeds'],
      summary: `Atom feed of the ${kind}`,
      parameters: [RID, { $ref: '#/components/parameters/IfNoneMatch' }],
      description: `${FEED_DESCRIPTIONS[kind]} Atom 1.0 (RFC 4287); entry ids are \`rad:z…/${kind}/<id>\` (the same whatever the host), links are the API URLs on the request's \`Host\`. Strong ETag; no Cache-Control (revalidated like \`/repos/{rid}\`).`,
      responses: {
        '200': {
          description: 'The feed.',
          headers: { etag: { $ref: '#/components/headers/ETag' } },
          content: { 'application/atom+xml': { schema: { type: 'string', contentMediaType: 'application/atom+xml' } } },
        },
        '304': ref('NotModified'),
        ...errors,
      },
    },
  };
}

const EVENTS_DESCRIPTION = [
  '`text/event-stream` that stays open: `: ready` once the server knows what is there, then one event per change read from storage',
  '(`event: refs|issue|patch|repo`, `id:` increasing, `data:` one JSON line: `RefsEvent`, `CobEvent`, `RepoEvent`), and a `: keep-alive` comment every 15 s.',
  'A repository made private answers as one removed: `repo` with `public: false`. `Last-Event-ID` is not honoured (nothing is replayed).',
  'At most 1,000 streams at once: past that, 503 with `retry-after`. A client that does not read is dropped.',
].join(' ');

function events(summary: string, parameters: JsonSchema[], extra: string): JsonSchema {
  return {
    get: {
      tags: ['events'],
      summary,
      parameters,
      description: `${EVENTS_DESCRIPTION} ${extra}`,
      responses: {
        '200': {
          description: 'The event stream.',
          headers: { 'cache-control': { schema: { const: 'no-cache' } } },
          content: { 'text/event-stream': { schema: { type: 'string', contentMediaType: 'text/event-stream' } } },
        },
        '503': ref('Busy'),
        ...(parameters.length > 0 ? errors : { '405': ref('MethodNotAllowed'), '500': ref('InternalError'), default: ref('OtherError') }),
      },
    },
  };
}

/** Paths of the feeds and the event streams, keyed by OpenAPI template. */
export function livePaths(): Record<string, JsonSchema> {
  return {
    '/api/v1/repos/{rid}/feeds/commits.atom': feed('commits'),
    '/api/v1/repos/{rid}/feeds/issues.atom': feed('issues'),
    '/api/v1/repos/{rid}/feeds/patches.atom': feed('patches'),
    '/api/v1/events': events('Events of every public repository', [], 'Every public repository.'),
    '/api/v1/repos/{rid}/events': events(
      'Events of one repository',
      [RID],
      'Only this repository; the stream ends after its `repo` event with `public: false`.',
    ),
  };
}
