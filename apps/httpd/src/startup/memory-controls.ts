import type { Logger } from 'pino';
import { divideMemoryBudget } from '../config/memory-budget.js';
import type { ServerConfig } from '../config/server-config.js';
import { FreeMemoryRelease } from '../platform/free-memory-release.js';
import { HeapHeadroom } from '../platform/heap-headroom.js';
import type { YoungGenerationCap } from '../platform/young-generation-cap.js';

/** The process's memory controls, shown in the metrics. */
export interface MemoryControls {
  readonly heapHeadroom: HeapHeadroom;
  readonly youngGeneration: YoungGenerationCap;
  readonly freeMemoryRelease: FreeMemoryRelease;
}

/** What {@link startMemoryControls} reads. */
export interface StartMemoryControlsOptions {
  readonly config: ServerConfig;
  /** The cap started when main.ts began loading, resized here to the budget's share. */
  readonly youngGeneration: YoungGenerationCap;
  readonly logger: Logger;
}

/**
 * Start-up step of a serving process: bounds the JS heap's garbage and young generation by the
 * memory budget and starts handing malloc's free memory back to the kernel.
 */
export function startMemoryControls({ config, youngGeneration, logger }: StartMemoryControlsOptions): MemoryControls {
  // From the start, so the index build's garbage is bounded too.
  const memoryBounds = divideMemoryBudget(config.memoryBudgetMiB);
  const heapHeadroom = new HeapHeadroom(memoryBounds.heapHeadroomBytes);
  heapHeadroom.start();
  youngGeneration.resize(memoryBounds.youngGenerationBytes);
  // What bursts of big answers leave in malloc's arenas goes back to the kernel.
  const { release: freeMemoryRelease, problem: noMemoryRelease } = FreeMemoryRelease.forThisProcess();
  if (noMemoryRelease !== null) logger.info({ event: 'memory' }, `free memory is not handed back to the kernel: ${noMemoryRelease}`);
  freeMemoryRelease.start();
  return { heapHeadroom, youngGeneration, freeMemoryRelease };
}
