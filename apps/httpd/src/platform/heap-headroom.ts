/**
 * Bounds the garbage V8 lets pile up between full collections (docs/operating.md, "Memory, workers and the cache directory").
 *
 * V8 starts the next full collection when the heap has grown by a factor of what survived the
 * last one, and on a machine with a few GiB of memory that factor goes up to 4, so a server
 * with a hundred MB of live data let its heap grow to four times that under steady load. Here the growth after each full collection is set
 * to a fixed number of bytes instead (`--heap-growing-percent`, which V8 reads at every
 * collection), so the peak is the live data plus the headroom however much is live.
 */
import { constants, type PerformanceEntry, PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';

/** V8's own largest factor is 4: a growth this large or more is left to V8's own choice. */
const V8_MAX_GROWING_PERCENT = 300;

/**
 * The least growth asked for, so a live heap far above the headroom is not collected over and
 * over (measured: 20 % cost a commit/tree crawl 20–25 % of its pages/s, 50 % about 3 %).
 */
const MIN_GROWING_PERCENT = 25;

/**
 * The growth to ask of V8 after a full collection left `liveBytes`.
 * @param liveBytes - heap in use after the collection
 * @param headroomBytes - the garbage allowed on top of it
 * @returns a percent for `--heap-growing-percent`; 0 leaves the growth to V8
 */
export function growingPercentFor(liveBytes: number, headroomBytes: number): number {
  if (headroomBytes <= 0 || liveBytes <= 0) return 0;
  const percent = Math.ceil((headroomBytes / liveBytes) * 100);
  return percent >= V8_MAX_GROWING_PERCENT ? 0 : Math.max(MIN_GROWING_PERCENT, percent);
}

/** How the governor reads the heap and tells V8 (tests pass their own). */
export interface HeapAccess {
  /** Bytes of heap in use now. */
  usedBytes(): number;
  /** Sets a V8 flag, e.g. `--heap-growing-percent=40`. */
  setFlag(flag: string): void;
}

const V8_HEAP: HeapAccess = {
  usedBytes: () => v8.getHeapStatistics().used_heap_size,
  setFlag: (flag) => v8.setFlagsFromString(flag),
};

function isFullCollection(entry: PerformanceEntry): boolean {
  return (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR;
}

/** Sets V8's heap growth after every full collection from the live size it left. */
export class HeapHeadroom {
  private observer: PerformanceObserver | null = null;
  private percent = 0;
  private live = 0;
  private adjustments = 0;
  /** V8 refused the flag once: its own growth stays for good. */
  private refused = false;

  /**
   * @param headroomBytes - garbage allowed between full collections (0: V8 decides alone)
   * @param heap - where the heap is read and the flag set (default: this process's V8)
   */
  constructor(
    readonly headroomBytes: number,
    private readonly heap: HeapAccess = V8_HEAP,
  ) {}

  /** Sets the growth for the heap as it is now, then after every full collection. */
  start(): void {
    if (this.observer !== null || this.headroomBytes <= 0 || this.refused || !this.adjust()) return;
    this.observer = new PerformanceObserver((list) => {
      // Entries arrive after the collection, in a later turn: the heap in use then is what
      // survived plus what was allocated since, a slight overestimate of the live size.
      if (list.getEntries().some(isFullCollection)) this.adjust();
    });
    this.observer.observe({ entryTypes: ['gc'] });
  }

  /** Stops following collections; the last growth set stays. */
  stop(): void {
    this.observer?.disconnect();
    this.observer = null;
  }

  /** The growth last asked of V8 (0: V8's own). */
  get growingPercent(): number {
    return this.percent;
  }

  /** Heap in use when the growth was last set, in bytes. */
  get liveBytes(): number {
    return this.live;
  }

  /** Times the growth was worked out (at start and after each full collection). */
  get adjustmentCount(): number {
    return this.adjustments;
  }

  /** Works the growth out from the heap now; false when V8 refused it (governing stops). */
  private adjust(): boolean {
    this.adjustments += 1;
    this.live = this.heap.usedBytes();
    const percent = growingPercentFor(this.live, this.headroomBytes);
    if (percent === this.percent) return true;
    try {
      this.heap.setFlag(`--heap-growing-percent=${percent}`);
    } catch {
      // A V8 that refuses flags once started: its own growth stays, the server goes on.
      this.refused = true;
      this.stop();
      return false;
    }
    this.percent = percent;
    return true;
  }
}
