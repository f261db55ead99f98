/**
 * Keeps V8's young generation at or under a size (docs/operating.md, "Memory, workers and the cache directory").
 *
 * V8 doubles the young generation (two semi-spaces) each time enough objects survive its
 * scavenges, up to 32 MiB on a 64-bit machine, and a busy server stays there. The bound V8 offers,
 * `--max-semi-space-size`, only counts when given before the process starts. V8 reads
 * `--semi-space-growth-factor` each time it grows the young generation, though, so after every
 * collection this sets that factor to 1 once one more doubling would pass the cap, and back to 2
 * (V8's own) when V8 has shrunk the young generation below half of it.
 */
import { PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';

/** V8's own growth factor of the young generation. */
const V8_GROWTH_FACTOR = 2;

/**
 * The growth factor that keeps a young generation of `currentBytes` at or under `capBytes`.
 * @param currentBytes - the young generation's size now (both semi-spaces)
 * @param capBytes - the largest size allowed
 * @returns 2 while one more doubling stays within the cap, else 1
 */
export function youngGrowthFactorFor(currentBytes: number, capBytes: number): number {
  return currentBytes * V8_GROWTH_FACTOR <= capBytes ? V8_GROWTH_FACTOR : 1;
}

/** How the cap reads the young generation and tells V8 (tests pass their own). */
export interface YoungGenerationAccess {
  /** Bytes the young generation takes now (V8's `new_space`, both semi-spaces). */
  sizeBytes(): number;
  /** Sets a V8 flag, e.g. `--semi-space-growth-factor=1`. */
  setFlag(flag: string): void;
}

const V8_YOUNG_GENERATION: YoungGenerationAccess = {
  sizeBytes: () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0,
  setFlag: (flag) => v8.setFlagsFromString(flag),
};

/** Holds the young generation at or under a size, from the first collection on. */
export class YoungGenerationCap {
  private observer: PerformanceObserver | null = null;
  private factor = V8_GROWTH_FACTOR;
  private size = 0;
  /** V8 refused the flag once: its own growth stays for good. */
  private refused = false;

  /**
   * @param cap - the largest young generation, in bytes (0: V8 decides alone)
   * @param youngGeneration - where the size is read and the flag set (default: this process's V8)
   */
  constructor(
    private cap: number,
    private readonly youngGeneration: YoungGenerationAccess = V8_YOUNG_GENERATION,
  ) {}

  /** The largest young generation allowed, in bytes (0: V8's own). */
  get capBytes(): number {
    return this.cap;
  }

  /** Sets the growth for the size now, then after every collection, young or full. */
  start(): void {
    if (this.observer !== null || this.cap <= 0 || this.refused || !this.adjust()) return;
    // Scavenges are the collections that grow the young generation; a full collection may shrink it.
    this.observer = new PerformanceObserver(() => this.adjust());
    this.observer.observe({ entryTypes: ['gc'] });
  }

  /**
   * Changes the cap: the process starts with the smallest one, before the command line is read.
   * @param capBytes - the new cap (0 stops capping)
   */
  resize(capBytes: number): void {
    this.cap = capBytes;
    if (capBytes <= 0) this.stop();
    else if (this.observer === null) this.start();
    else this.adjust();
  }

  /** Stops following collections and gives the growth back to V8. */
  stop(): void {
    this.unobserve();
    if (this.factor !== V8_GROWTH_FACTOR && !this.refused) this.setFactor(V8_GROWTH_FACTOR);
  }

  /** The young generation's size when last read, in bytes. */
  get sizeBytes(): number {
    return this.size;
  }

  /** The growth factor last asked of V8 (2 is V8's own). */
  get growthFactor(): number {
    return this.factor;
  }

  /** Works the factor out from the size now; false when V8 refused it (capping stops). */
  private adjust(): boolean {
    this.size = this.youngGeneration.sizeBytes();
    const factor = youngGrowthFactorFor(this.size, this.cap);
    return factor === this.factor || this.setFactor(factor);
  }

  private setFactor(factor: number): boolean {
    try {
      this.youngGeneration.setFlag(`--semi-space-growth-factor=${factor}`);
    } catch {
      // A V8 that refuses flags once started: its own growth stays, the server goes on.
      this.refused = true;
      this.unobserve();
      return false;
    }
    this.factor = factor;
    return true;
  }

  private unobserve(): void {
    this.observer?.disconnect();
    this.observer = null;
  }
}
