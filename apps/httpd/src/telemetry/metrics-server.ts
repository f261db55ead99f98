import { createServer, type Server } from 'node:http';
import type { ListenAddress } from '../config/listen-address.js';
import type { MetricsSource } from './cluster-metrics.js';
import { READYZ_PATH, type Readiness } from './readiness.js';

/** A listening metrics server. */
export interface MetricsServer {
  /** The address actually bound. */
  readonly address: ListenAddress;
  close(): Promise<void>;
}

/**
 * Serves `GET /metrics` (Prometheus text format) and `GET /readyz` on their own listener, off
 * the API port, so scrapes and probes never share the API's connection limits, proxy or cache.
 */
export async function startMetricsServer(options: { listen: ListenAddress; registry: MetricsSource; readiness: Readiness }): Promise<MetricsServer> {
  const { registry, readiness } = options;
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?', 1)[0];
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end();
    } else if (path === '/metrics') {
      registry.metrics().then(
        (text) => response.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' }).end(text),
        () => response.writeHead(500).end(),
      );
    } else if (path === READYZ_PATH) {
      const { status, body } = readiness.answer();
      response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
    } else {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not Found","code":404}');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    if (options.listen.kind === 'tcp') server.listen(options.listen.port, options.listen.host, resolve);
    else server.listen(options.listen.path, resolve);
  });
  const bound = server.address();
  const address: ListenAddress =
    options.listen.kind === 'tcp' && bound !== null && typeof bound === 'object'
      ? { kind: 'tcp', host: options.listen.host, port: bound.port }
      : options.listen;
  return {
    address,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
