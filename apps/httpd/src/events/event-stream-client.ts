import type { ServerResponse } from 'node:http';
import type { Rid } from '@forge-httpd/identity';

/**
 * One open event stream: what it follows (every public repository, or one) and the response
 * it writes to. Writes never wait: a client that stops reading is dropped once the bytes it
 * has not taken pass a bound, so it cannot make the server hold more.
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

  /** Writes a frame; drops the client instead when it would pass its bound. */
  write(frame: string): void {
    if (this.closed) return;
    if (this.response.writableLength + Buffer.byteLength(frame) > this.maxUnsentBytes) {
      this.ended = true;
      this.response.destroy();
      return;
    }
    this.response.write(frame);
  }

  /** Ends the stream (after what was written). */
  end(): void {
    if (this.closed) return;
    this.ended = true;
    this.response.end();
  }
}
