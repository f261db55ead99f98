import type { IncomingHttpHeaders } from 'node:http';

// A host name or IPv4 address, or a bracketed IPv6 address, with an optional port (RFC 9110 §7.2).
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?$/;

/**
 * The origin links are built on: the request's `Host`, and `https` when a proxy in front says
 * so in `X-Forwarded-Proto` (deploy/nginx sets it), else `http`. The configuration has no
 * public URL, so the address the client used is the one it can follow. A missing or malformed
 * `Host` gives `''`: links then start at `/api/v1/…`, relative to the feed (RFC 4287 §4.2.7.1
 * allows IRI references).
 */
export function requestOrigin(headers: IncomingHttpHeaders): string {
  const host = headers.host;
  if (host === undefined || !HOST.test(host)) return '';
  const proto = headers['x-forwarded-proto'];
  return `${proto === 'https' ? 'https' : 'http'}://${host.toLowerCase()}`;
}
