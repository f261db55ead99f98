import type { FastifyInstance } from 'fastify';
import { plainErrorBody } from '../platform/error-response.js';

/** The readiness route, on the API port and on the metrics listener. */
export const READYZ_PATH = '/readyz';

/** Why the server is not ready, or `ready`. */
export type ReadinessState = 'starting' | 'ready' | 'stopping' | 'failed';

/**
 * Whether a load balancer should send traffic here: ready once the storage index is built
 * (listings and search answer without waiting for it), not ready again once shutdown began.
 */
export class Readiness {
  private current: ReadinessState = 'starting';

  get state(): ReadinessState {
    return this.current;
  }

  /** Becomes ready when `build` resolves (failed when it rejects), unless stopping meanwhile. */
  track(build: Promise<unknown>): void {
    build.then(
      () => {
        if (this.current === 'starting') this.current = 'ready';
      },
      () => {
        if (this.current === 'starting') this.current = 'failed';
      },
    );
  }

  /** Shutdown began: answer not ready from now on. */
  stopping(): void {
    this.current = 'stopping';
  }

  /** The answer of `GET /readyz`: 200 `{"status":"ready"}`, else 503 `{"error","code","status"}`. */
  answer(): { status: number; body: Record<string, unknown> } {
    if (this.current === 'ready') return { status: 200, body: { status: 'ready' } };
    return { status: 503, body: { ...plainErrorBody(503), status: this.current } };
  }
}

/** Registers `GET /readyz` (and HEAD) on the API server; never cached. */
export function installReadiness(fastify: FastifyInstance, readiness: Readiness): void {
  fastify.get(READYZ_PATH, (_request, reply) => {
    const { status, body } = readiness.answer();
    void reply.code(status).header('cache-control', 'no-store').send(body);
  });
}
