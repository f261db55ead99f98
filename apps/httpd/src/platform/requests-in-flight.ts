/**
 * Counts the requests a server is answering, so background work can wait until there are none:
 * a visitor's page goes first, evaluation ahead of time uses the gaps between them.
 */
import type { Server } from 'node:http';

/** The number of requests in flight on one HTTP server, and a wait for the next idle moment. */
export class RequestsInFlight {
  private count = 0;
  private waiting: Array<() => void> = [];

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
   * the event loop later, so a request that arrived meanwhile is counted first.
   */
  whenIdle(): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private finished(): void {
    this.count--;
    if (this.count > 0 || this.waiting.length === 0) return;
    setImmediate(() => {
      if (this.count > 0) return;
      const waiting = this.waiting;
      this.waiting = [];
      for (const resolve of waiting) resolve();
    });
  }
}
