/** Bounds and periods of the event streams (docs/operating.md "Limits and timeouts"). */
export interface EventStreamOptions {
  /** Streams open at once over both routes; one more is answered 503 (default 1,000). */
  readonly maxClients: number;
  /** Time between two comment lines on every open stream, in ms (default 15 s). */
  readonly heartbeatMs: number;
  /** Time between two looks at storage while a stream is open, in ms (default 1 s). */
  readonly pollMs: number;
  /** Bytes written to a stream and not yet taken by its client past which it is dropped (default 256 KiB). */
  readonly maxUnsentBytes: number;
}

/** The defaults of {@link EventStreamOptions}. */
export const DEFAULT_EVENT_STREAM_OPTIONS: EventStreamOptions = {
  maxClients: 1000,
  heartbeatMs: 15_000,
  pollMs: 1000,
  maxUnsentBytes: 256 * 1024,
};

/** DI token of the {@link EventStreamOptions} the server runs with. */
export const EVENT_STREAM_OPTIONS = Symbol('EVENT_STREAM_OPTIONS');
