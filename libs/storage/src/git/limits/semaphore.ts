/**
 * A counting semaphore bounding how many git subprocesses run at once: spawns and their
 * output handling run on the main thread, so unbounded spawns starve every other request
 * under load.
 */
export class Semaphore {
  private available: number;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error('semaphore limit must be >= 1');
    this.available = limit;
  }

  /** Waits for a slot; the returned function releases it (call it exactly once). */
  async acquire(): Promise<() => void> {
    if (this.available > 0) {
      this.available -= 1;
    } else {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next !== undefined) next();
      else this.available += 1;
    };
  }

  /** Runs `task` while holding a slot. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await task();
    } finally {
      release();
    }
  }

  /** Slots in use plus callers waiting (for tests and diagnostics). */
  get pending(): number {
    return this.limit - this.available + this.waiting.length;
  }
}
