/**
 * Counts the requests a server is answering, so background work can wait until there are none:
 * a visitor's page goes first, evaluation ahead of time uses the gaps between them.
 */
import type { Server } from 'node:http';

/** The number of requests in flight on one HTTP server, and a wait for the next idle moment. */
export class RequestsInFlight {
  private count = 0;
  private readonly waiting = new Set<() => void>();

  /** Starts counting the requests of `server` (every request, whichever layer answers it). */
  constructor(server: Pick<Server, 'on'>) {
    server.on('request', (_request, response) => {
      this.count++;
      response.once('close', () => this.finished());
    });
  }

  /** Requests received and not finished or aborted yet. */
  get size(): number {
    return this.count;
  }

  /**
   * Resolves at once when no request is in flight, else once the last one finishes — a turn of
   * the event loop later, so a request that arrived meanwhile is counted first — or after
   * `maxWaitMs` at the latest: a clone or a slow download can stay in flight for minutes while
   * the process has nothing to do, and background work must still move on.
   */
  whenIdle(maxWaitMs = Number.POSITIVE_INFINITY): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const done = (): void => {
        clearTimeout(timer);
        this.waiting.delete(done);
        resolve();
      };
      if (Number.isFinite(maxWaitMs)) timer = setTimeout(done, maxWaitMs).unref();
      this.waiting.add(done);
    });
  }

  private finished(): void {
    this.count--;
    if (this.count > 0 || this.waiting.size === 0) return;
    setImmediate(() => {
      if (this.count > 0) return;
      for (const done of [...this.waiting]) done();
    });
  }
}
