import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * The client's address for the log: the peer's, unless the peer is a proxy on this machine
 * (loopback, as in deploy/nginx) that passed the client's in `X-Real-IP`. A remote peer's
 * header is ignored, so a client cannot choose the address logged for it.
 */
export function clientAddressOf(request: IncomingMessage): string | undefined {
  const peer = request.socket?.remoteAddress;
  if (peer === undefined || !LOOPBACK.has(peer)) return peer;
  const forwarded = request.headers['x-real-ip'];
  return typeof forwarded === 'string' && isIP(forwarded) !== 0 ? forwarded : peer;
}
