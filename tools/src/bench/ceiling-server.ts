/**
 * The HTTP ceiling: a bare Fastify server that answers each captured URL with the identical
 * status, headers and body bytes forge-httpd gave. No handler can beat it on this machine.
 */
import Fastify from 'fastify';
import { freePort } from './processes.js';

/** One captured response. */
export interface CapturedResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

/** A running ceiling server. */
export interface CeilingServer {
  readonly baseUrl: string;
  stop(): Promise<void>;
}

/** Fetches every path once from `baseUrl` and keeps the answers for the ceiling. */
export async function captureResponses(baseUrl: string, paths: readonly string[]): Promise<Map<string, CapturedResponse>> {
  const captured = new Map<string, CapturedResponse>();
  for (const p of new Set(paths)) {
    const response = await fetch(baseUrl + p);
    const headers: Record<string, string> = {};
    response.headers.forEach((value, key) => {
      if (!['content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding'].includes(key)) headers[key] = value;
    });
    captured.set(p, { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()) });
  }
  return captured;
}

/** Starts the ceiling server in this process (the load tool runs in another one). */
export async function startCeiling(responses: ReadonlyMap<string, CapturedResponse>): Promise<CeilingServer> {
  const app = Fastify({ logger: false });
  app.get('/*', (request, reply) => {
    const hit = responses.get(request.url);
    if (hit === undefined) return reply.code(404).send();
    return reply.code(hit.status).headers(hit.headers).send(hit.body);
  });
  const port = await freePort();
  await app.listen({ host: '127.0.0.1', port });
  return { baseUrl: `http://127.0.0.1:${port}`, stop: () => app.close() };
}
