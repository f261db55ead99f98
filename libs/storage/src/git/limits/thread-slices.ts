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

/**
 * Runs `steps` (work that yields every few hundred items) to its end in slices of about
 * `sliceMs`, each followed by a turn of the event loop.
 * @returns the generator's result, or null when `keepGoing` said to stop between two slices
 */
export async function runInSlices<T>(
  steps: Generator<void, T, void>,
  options: { sliceMs: number; keepGoing?: () => boolean },
): Promise<{ readonly value: T } | null> {
  const slices = new ThreadSlices(options.sliceMs);
  for (;;) {
    const step = steps.next();
    if (step.done === true) return { value: step.value };
    if (!slices.due()) continue;
    await slices.turn();
    if (options.keepGoing?.() === false) return null;
  }
}

/** Runs `steps` to its end at once (tests, small work). */
export function runAtOnce<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}
