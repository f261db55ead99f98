/**
 * Whether the event loop's thread has been busy lately (its utilization over the last
 * `intervalMs` above `threshold`). Reads in process cost this thread; through cat-file they
 * cost git's core and a round trip. When the thread is the bottleneck (many requests at once),
 * the other core should do the inflating.
 */
export class ThreadLoad {
  private last = performance.eventLoopUtilization();
  private checkedAt = performance.now();
  private busy = false;

  constructor(
    private readonly threshold: number,
    private readonly intervalMs: number,
  ) {}

  isBusy(): boolean {
    const now = performance.now();
    if (now - this.checkedAt >= this.intervalMs) {
      const current = performance.eventLoopUtilization();
      this.busy = performance.eventLoopUtilization(current, this.last).utilization > this.threshold;
      this.last = current;
      this.checkedAt = now;
    }
    return this.busy;
  }
}
