/**
 * Bounds how many long-lived processes (or open pack sets) stay alive at once, shared by the
 * repositories of a runtime. Least recently used idle ones go first.
 */

/** A long-lived process that can be stopped when it has no requests in flight. */
export interface StoppableProcess {
  isBusy(): boolean;
  stopIdle(): void;
}

/** Keeps at most `max` processes alive, stopping least recently used idle ones beyond it. */
export class LiveProcessLimit {
  private readonly live = new Map<StoppableProcess, true>();

  constructor(private readonly max: number) {}

  /** Marks `process` as alive and most recently used; may stop others beyond the limit. */
  touch(process: StoppableProcess): void {
    this.live.delete(process);
    this.live.set(process, true);
    if (this.live.size <= this.max) return;
    for (const candidate of this.live.keys()) {
      if (this.live.size <= this.max) return;
      if (candidate === process || candidate.isBusy()) continue;
      this.live.delete(candidate);
      candidate.stopIdle();
    }
  }

  /** Forgets a process that stopped by itself. */
  remove(process: StoppableProcess): void {
    this.live.delete(process);
  }

  /** Number of processes currently counted as alive. */
  get size(): number {
    return this.live.size;
  }
}
