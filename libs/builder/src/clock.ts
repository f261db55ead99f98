/**
 * A deterministic clock for generated node homes: every write takes its time from here, so the
 * same recipe always yields the same object ids (docs/node-home.md §11).
 */
export interface FixedClock {
  /** Current time in seconds since the epoch (does not advance). */
  now(): number;
  /** Advances by the configured step and returns the new time in seconds. */
  tick(): number;
  /** Current time in milliseconds (node-side timestamps, §8). */
  nowMillis(): number;
  /** Moves the clock forward to `seconds` (never backwards), e.g. past generated history. */
  advanceTo(seconds: number): void;
}

/**
 * Creates a clock starting at `start` seconds that advances by `step` seconds per `tick()`.
 * A step of 0 gives heartwood's test setup (one `GIT_COMMITTER_DATE` for everything).
 * @param options - start time (seconds) and step (seconds, default 60)
 * @returns the clock
 */
export function createFixedClock(options: { start: number; step?: number }): FixedClock {
  let current = options.start;
  const step = options.step ?? 60;
  return {
    now: () => current,
    tick: () => {
      current += step;
      return current;
    },
    nowMillis: () => current * 1000,
    advanceTo: (seconds) => {
      current = Math.max(current, seconds);
    },
  };
}
