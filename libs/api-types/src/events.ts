/**
 * Live updates and feeds (docs/api.md "Live updates", "Feeds"): the payload of each
 * Server-Sent Event of `GET /api/v1/events` and `GET /api/v1/repos/{rid}/events`, a parser
 * that checks an event against them, and the URLs of the streams and the Atom feeds. The
 * streams are read with the platform's `EventSource`; this module only names and checks.
 */
import * as v from 'valibot';
import { ContractError } from './client.js';
import { oidSchema, ridSchema } from './scalars.js';

/** `refs`: top-level refs of a repository that moved (their new oid), appeared, or went away (null). */
export const refsEventSchema = v.object({ rid: ridSchema, refs: v.record(v.string(), v.nullable(oidSchema)) });
/** `issue` and `patch`: an object created, changed or removed, by id. */
export const cobEventSchema = v.object({ rid: ridSchema, id: oidSchema });
/** `repo`: a repository appeared or turned public (`true`), or was removed or turned private (`false`: the two look the same). */
export const repoEventSchema = v.object({ rid: ridSchema, public: v.boolean() });

/** The payload schema of each event name. */
export const SERVER_EVENT_SCHEMAS = { refs: refsEventSchema, issue: cobEventSchema, patch: cobEventSchema, repo: repoEventSchema } as const;

/** An event name the streams send. */
export type ServerEventName = keyof typeof SERVER_EVENT_SCHEMAS;

/** One event: its name, its id (increasing along a stream) and its checked payload. */
export type ServerEvent = {
  [N in ServerEventName]: { readonly type: N; readonly id: string; readonly data: v.InferOutput<(typeof SERVER_EVENT_SCHEMAS)[N]> };
}[ServerEventName];

function isEventName(name: string): name is ServerEventName {
  return Object.hasOwn(SERVER_EVENT_SCHEMAS, name);
}

/**
 * Checks one received event (an `EventSource` `MessageEvent`'s `type`, `lastEventId` and `data`).
 * @returns the typed event, or null for an event name this contract does not know (newer servers may add some)
 * @throws ContractError when a known event's data does not match its schema
 */
export function parseServerEvent(message: { readonly type: string; readonly lastEventId: string; readonly data: string }): ServerEvent | null {
  if (!isEventName(message.type)) return null;
  let json: unknown;
  try {
    json = JSON.parse(message.data);
  } catch {
    throw new ContractError(200, message.data, ['event data is not JSON']);
  }
  const result = v.safeParse(SERVER_EVENT_SCHEMAS[message.type], json);
  if (!result.success)
    throw new ContractError(
      200,
      json,
      result.issues.map((issue) => `${v.getDotPath(issue) ?? '(data)'}: ${issue.message}`),
    );
  return { type: message.type, id: message.lastEventId, data: result.output } as ServerEvent;
}

/**
 * The URL of an event stream: every public repository's, or one repository's.
 * @param baseUrl - server origin
 * @param rid - the repository followed; omitted for every public repository
 */
export function eventStreamUrl(baseUrl: string, rid?: string): string {
  const origin = baseUrl.replace(/\/$/, '');
  return rid === undefined ? `${origin}/api/v1/events` : `${origin}/api/v1/repos/${encodeURIComponent(rid)}/events`;
}

/** The three Atom feeds of a repository. */
export type FeedKind = 'commits' | 'issues' | 'patches';

/** The URL of a repository's Atom feed (`application/atom+xml`). */
export function feedUrl(baseUrl: string, rid: string, kind: FeedKind): string {
  return `${baseUrl.replace(/\/$/, '')}/api/v1/repos/${encodeURIComponent(rid)}/feeds/${kind}.atom`;
}
