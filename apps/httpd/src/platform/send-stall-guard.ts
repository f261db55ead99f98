import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * How long an answer may wait without the client taking any of its bytes, in ms: then the
 * connection is closed (what nginx's `send_timeout` does, with its default).
 */
const SEND_STALL_TIMEOUT_MS = 60_000;

/** Longest time between two looks at the open connections, in ms. */
const MAX_SWEEP_INTERVAL_MS = 5000;

/**
 * The send timeout while the answers waiting for clients pass their bound, as a part of the
 * usual one (10 s of 60): big pages are refused meanwhile, so the clients holding them are cut
 * off sooner.
 */
const PRESSED_STALL_SHARE = 1 / 6;

/** What the guard saw of one connection last time it looked. */
interface SendProgress {
  /** Bytes the kernel had taken when the wait began (-1: nothing was waiting). */
  taken: number;
  /** When bytes began waiting without progress (ms since the epoch). */
  since: number;
}

/**
 * Closes connections whose client stopped reading an answer. Receiving is bounded by the
 * request timeouts, but nothing bounded sending: a client that asks for a long answer (a range
 * over a whole history, a clone, an archive) and then never reads held what produces it — the
 * range's commit ids, a clone slot and its git process — for as long as it kept the connection.
 *
 * Only a connection with bytes waiting to be taken is judged, and only by whether the kernel
 * took any of them: an answer still being computed, a keep-alive connection between requests
 * and a slow but reading client are never cut off. Closing the socket ends the answer as a
 * client that left would (its stream is destroyed, its git process stopped). While the bytes
 * waiting over all connections pass their bound (when big pages are refused, see
 * page-builds.ts), stalled connections are cut after a sixth of the time.
 */
export class SendStallGuard {
  private readonly connections = new Map<Socket, SendProgress>();
  private readonly sweep: NodeJS.Timeout;
  private stalled = 0;

  private readonly stallMs: number;
  private readonly pressureBytes: number;

  /**
   * @param server - the HTTP server whose connections are watched from now on
   * @param options - `stallMs`: time without progress after which a connection with waiting
   *   bytes is closed (default {@link SEND_STALL_TIMEOUT_MS}); `pressureBytes`: unsent bytes past
   *   which that time is a sixth (default: never)
   */
  constructor(server: Server, options: { stallMs?: number; pressureBytes?: number } = {}) {
    this.stallMs = options.stallMs ?? SEND_STALL_TIMEOUT_MS;
    this.pressureBytes = options.pressureBytes ?? Number.POSITIVE_INFINITY;
    server.on('connection', (socket: Socket) => {
      this.connections.set(socket, { taken: -1, since: 0 });
      socket.once('close', () => this.connections.delete(socket));
    });
    this.sweep = setInterval(() => this.look(Date.now()), Math.max(10, Math.min(this.stallMs / 4, MAX_SWEEP_INTERVAL_MS)));
    this.sweep.unref();
    server.once('close', () => clearInterval(this.sweep));
  }

  /** Connections closed because their client stopped taking an answer, since the start. */
  get stalledConnections(): number {
    return this.stalled;
  }

  /**
   * Bytes of answers written and not yet taken by the kernel, over every connection: what
   * slow and stalled clients make this process hold.
   */
  get unsentBytes(): number {
    let bytes = 0;
    for (const socket of this.connections.keys()) bytes += socket.writableLength;
    return bytes;
  }

  /**
   * Whether the answers waiting for clients pass their bound: big pages are refused then
   * (page-builds.ts), and stalled connections are cut sooner.
   */
  get pressed(): boolean {
    return this.unsentBytes > this.pressureBytes;
  }

  private look(now: number): void {
    const stallMs = this.pressed ? this.stallMs * PRESSED_STALL_SHARE : this.stallMs;
    for (const [socket, progress] of this.connections) {
      // Bytes written and not yet taken by the kernel: the client's window is closed.
      const waiting = socket.writableLength;
      if (waiting === 0 || socket.destroyed) {
        progress.taken = -1;
        continue;
      }
      const taken = socket.bytesWritten - waiting;
      if (progress.taken !== taken) {
        progress.taken = taken;
        progress.since = now;
      } else if (now - progress.since >= stallMs) {
        this.stalled++;
        this.connections.delete(socket);
        socket.destroy();
      }
    }
  }
}
