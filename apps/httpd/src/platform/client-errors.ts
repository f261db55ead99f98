/**
 * Answers for requests that never reach a route: Node's HTTP parser rejects them (malformed
 * request line, headers over 16 KiB, a request not received in time) or asks for a tunnel
 * (`CONNECT`). They get the same JSON error body and CORS headers as every other error
 * (`{"error": <reason>, "code": <status>}`), then the connection is closed, since the parser
 * cannot tell where the next request would start.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/** The raw HTTP/1.1 answer with our error body (closes the connection). */
function rawErrorResponse(status: number, extraHeaders: Readonly<Record<string, string>> = {}): string {
  const reason = REASONS[status] ?? 'Bad Request';
  const body = JSON.stringify({ error: reason, code: status });
  const headers = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    'access-control-allow-origin': '*',
    vary: 'origin, access-control-request-method, access-control-request-headers',
    connection: 'close',
    ...extraHeaders,
  };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return `HTTP/1.1 ${status} ${reason}\r\n${lines.join('\r\n')}\r\n\r\n${body}`;
}

/** The status for a parser or timeout error (Node's `clientError` codes). */
function clientErrorStatus(error: { code?: unknown }): number {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  if (error.code === 'HPE_HEADER_OVERFLOW') return 431;
  return 400;
}

/** Fastify's `clientErrorHandler`: our body instead of Fastify's, then the socket is closed. */
export function handleClientError(error: Error & { code?: unknown }, socket: Duplex): void {
  // A reset connection has nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) socket.end(rawErrorResponse(clientErrorStatus(error)));
  else socket.destroy();
}

/** The server's `connect` listener: a proxy tunnel is not a method we serve. */
export function refuseConnect(_request: IncomingMessage, socket: Duplex): void {
  if (socket.writable) socket.end(rawErrorResponse(405, { allow: 'GET, HEAD' }));
  else socket.destroy();
  // Whatever the client sends next is not read: the connection is closing.
  socket.on('error', () => socket.destroy());
}
