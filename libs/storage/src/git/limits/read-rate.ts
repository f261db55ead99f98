/**
 * How many objects one repository was asked for lately: the reads of the current window (one
 * second by default), counted as they come.
 */
export class ReadRate {
  private windowStart = Number.NEGATIVE_INFINITY;
  private reads = 0;

  /**
   * @param windowMs - length of a window
   * @param now - the clock (ms; tests pass their own)
   */
  constructor(
    private readonly windowMs = 1000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Counts one read; the reads of the current window, this one included. */
  add(): number {
    const now = this.now();
    if (now - this.windowStart >= this.windowMs) {
      this.windowStart = now;
      this.reads = 0;
    }
    this.reads += 1;
    return this.reads;
  }
}
