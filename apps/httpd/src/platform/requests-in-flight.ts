/**
 * Watches the requests a server is answering, so background work can wait for a quiet moment:
 * a visitor's pages go first, evaluation ahead of time uses the gaps between them.
 */
import type { Server } from 'node:http';
import { performance } from 'node:perf_hooks';

/** When {@link RequestsInFlight.whenQuiet} resolves. */
export interface QuietOptions {
  /** No request in flight, and none started for this long (ms). */
  readonly quietMs: number;
  /**
   * Resolve after this long (ms) anyway: a clone or a slow download can stay in flight for
   * minutes while the process has nothing to do, and background work must still move on.
   */
  readonly maxWaitMs: number;
}

/** The requests in flight on one HTTP server, and a wait for the next quiet moment. */
export class RequestsInFlight {
  private count = 0;
  private lastStart = Number.NEGATIVE_INFINITY;
  /** Waiters woken when the last request in flight finishes. */
  private readonly waiting = new Set<() => void>();

  /** Starts watching the requests of `server` (every request, whichever layer answers it). */
  constructor(server: Pick<Server, 'on'>) {
    server.on('request', (_request, response) => {
      this.count++;
      this.lastStart = performance.now();
      response.once('close', () => this.finished());
    });
  }

  /** Requests received and not finished or aborted yet. */
  get size(): number {
    return this.count;
  }

  /**
   * Resolves once no request is in flight and none started for `quietMs` — so a steady
   * stream of requests keeps it waiting, not only one request at a time — or after `maxWaitMs`.
   */
  whenQuiet(options: QuietOptions): Promise<void> {
    if (this.quietFor(options.quietMs) <= 0) return Promise.resolve();
    const deadline = performance.now() + options.maxWaitMs;
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const check = (): void => {
        clearTimeout(timer);
        this.waiting.delete(check);
        const left = this.quietFor(options.quietMs);
        const now = performance.now();
        if (left <= 0 || now >= deadline) {
          resolve();
          return;
        }
        // In flight: woken by the last one's end (or the deadline); else the rest of the quiet time.
        if (this.count > 0) this.waiting.add(check);
        const wait = this.count > 0 ? deadline - now : Math.min(left, deadline - now);
        if (Number.isFinite(wait)) timer = setTimeout(check, wait).unref();
      };
      check();
    });
  }

  /** How much longer until the server has been quiet for `quietMs`; 0 or less when it has. */
  private quietFor(quietMs: number): number {
    if (this.count > 0) return quietMs;
    return this.lastStart + quietMs - performance.now();
  }

  private finished(): void {
    this.count--;
    if (this.count > 0 || this.waiting.size === 0) return;
    // A turn later: a request that arrived meanwhile is counted first.
    setImmediate(() => {
      if (this.count > 0) return;
      for (const check of [...this.waiting]) check();
    });
  }
}
