import type { ServerResponse } from 'node:http';
import type { Rid } from '@forge-httpd/identity';

/**
 * One open event stream: what it follows (every public repository, or one) and the response
 * it writes to. Writes never wait: a client that stops reading is dropped once the bytes it
 * has not taken pass a bound, so it cannot make the server hold more than that and one more write.
 */
export class EventStreamClient {
  private ended = false;

  /**
   * @param response - the hijacked response, its head already written
   * @param rid - the repository followed, or null for every public one
   * @param maxUnsentBytes - bytes not taken by the client past which it is dropped
   */
  constructor(
    private readonly response: ServerResponse,
    readonly rid: Rid | null,
    private readonly maxUnsentBytes: number,
  ) {}

  /** Whether the stream ended (hung up, dropped or ended by the server). */
  get closed(): boolean {
    return this.ended || this.response.destroyed || this.response.writableEnded;
  }

  /**
   * Writes frames; drops the client instead when what it was sent before is still not taken
   * past the bound (so a stream holds at most the bound plus one look's events).
   */
  write(frames: string): void {
    if (this.closed) return;
    if (this.response.writableLength > this.maxUnsentBytes) {
      this.ended = true;
      this.response.destroy();
      return;
    }
    this.response.write(frames);
  }

  /** Ends the stream (after what was written). */
  end(): void {
    if (this.closed) return;
    this.ended = true;
    this.response.end();
  }
}
