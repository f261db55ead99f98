/**
 * Long in-memory work (indexing a whole history's listing) done in slices: the caller asks
 * {@link ThreadSlices.due} every few hundred items and, when a slice is used up, awaits
 * {@link ThreadSlices.turn}, which lets the event loop serve what came meanwhile. Without it,
 * 50,000 commits held every request for 36-265 ms.
 */
export class ThreadSlices {
  private sliceStart = performance.now();

  /** @param sliceMs - how long the work may hold the thread at a time */
  constructor(private readonly sliceMs: number) {}

  /** Whether this slice is used up (then await {@link turn}). */
  due(): boolean {
    return performance.now() - this.sliceStart >= this.sliceMs;
  }

  /** A turn of the event loop (`setImmediate`), then a new slice. */
  async turn(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    this.sliceStart = performance.now();
  }
}

/** How long index builds hold the thread at a time (ms). */
export const INDEX_SLICE_MS = 4;
