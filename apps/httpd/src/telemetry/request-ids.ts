import type { IncomingMessage } from 'node:http';

/** A request id a proxy may pass on (nginx `$request_id`: 32 hex): short and printable only. */
const FORWARDED_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Prefix of this process's ids: distinguishes restarts in one log. */
const PREFIX = `${process.pid.toString(36)}-`;
let counter = 0;

/**
 * The id of a request in logs: the proxy's `x-request-id` when it is a plain token (so nginx's
 * and our lines join), else a counter unique within this process.
 */
export function requestIdOf(request: IncomingMessage): string {
  const forwarded = request.headers['x-request-id'];
  if (typeof forwarded === 'string' && FORWARDED_ID.test(forwarded)) return forwarded;
  counter += 1;
  return PREFIX + counter.toString(36);
}
