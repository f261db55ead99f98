/**
 * Gives the memory malloc keeps after frees back to the kernel, now and then (docs/operating.md, "Free memory handed back").
 *
 * glibc returns freed memory on its own only from the top of an arena; what bursts of big
 * answers leave in the middle stays resident, and after stalled readers of big pages that can be
 * more than half the process. Node cannot ask for it back, so a small native module of ours does
 * (`apps/httpd/native/release-free-memory.c`, built by `npm ci` with the C compiler that
 * better-sqlite3 needs too); it runs on libuv's thread pool. Where it is not built or the C
 * library has no `malloc_trim` (musl, macOS) nothing is released and the server runs as before.
 */
import { createRequire } from 'node:module';

/** What the native module gives. */
export interface NativeMemoryRelease {
  /** False where the C library has no way to release (the call then resolves false). */
  readonly supported: boolean;
  /** Resolves true when some memory went back to the kernel. */
  releaseFreeMemory(): Promise<boolean>;
}

/** Where the build puts the module, from this file in `src/platform` or `dist/platform`. */
const NATIVE_MODULE = '../../build/Release/release_free_memory.node';

/** The native module, or null (with why) when it is not built or cannot load here. */
export function loadNativeMemoryRelease(): { module: NativeMemoryRelease | null; problem: string | null } {
  try {
    const module = createRequire(import.meta.url)(NATIVE_MODULE) as NativeMemoryRelease;
    return module.supported ? { module, problem: null } : { module: null, problem: 'the C library has no malloc_trim' };
  } catch (error) {
    return { module: null, problem: `native module not built (${error instanceof Error ? error.message.split('\n')[0] : String(error)})` };
  }
}

/** How often resident memory is looked at (one cheap read of the process's RSS). */
const RELEASE_CHECK_MS = 5_000;

/**
 * Change of resident memory since the last release, up or down, that makes the next one worth
 * it. Growth: bursts allocate, and what they free stays with malloc. A fall counts too: the JS
 * heap giving its pages back lowers the size while malloc's freed chunks stay. A call holds one
 * pool thread for up to tens of milliseconds when much was freed, and malloc's other callers
 * wait for its locks meanwhile, so a steady process is left alone.
 */
export const RELEASE_AFTER_CHANGE_BYTES = 4 * 1024 * 1024;

/** A release at least this often while the process runs, whatever its size did. */
export const RELEASE_AT_LEAST_EVERY_MS = 60_000;

/** How the releaser reads the process and releases (tests pass their own). */
export interface MemoryAccess {
  residentBytes(): number;
  release(): Promise<boolean>;
}

/** Releases malloc's free memory when the process's size moved since the last time, and now and then. */
export class FreeMemoryRelease {
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  /** Resident bytes right after the last release (or at start). */
  private mark = 0;
  /** When the last release was made (or the releaser started). */
  private markedAt = 0;
  private releases = 0;
  private released = 0;
  private releaseMs = 0;

  /**
   * @param access - the process's memory and the native release; null: never releases
   * @param checkMs - how often the resident size is read
   * @param now - the clock (tests move it instead of waiting)
   */
  constructor(
    private readonly access: MemoryAccess | null,
    private readonly checkMs: number = RELEASE_CHECK_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** A releaser of this process's memory through the native module (inactive without it). */
  static forThisProcess(): { release: FreeMemoryRelease; problem: string | null } {
    const { module, problem } = loadNativeMemoryRelease();
    const access = module === null ? null : { residentBytes: () => process.memoryUsage.rss(), release: () => module.releaseFreeMemory() };
    return { release: new FreeMemoryRelease(access), problem };
  }

  /** Whether releases happen at all here. */
  get active(): boolean {
    return this.access !== null;
  }

  /** Releases made so far. */
  get releaseCount(): number {
    return this.releases;
  }

  /** Resident bytes the releases took off, summed (measured around each call). */
  get releasedBytes(): number {
    return this.released;
  }

  /** Wall time of the releases, summed in ms (from the call to its answer, the pool's queue included). */
  get releaseMilliseconds(): number {
    return this.releaseMs;
  }

  start(): void {
    if (this.access === null || this.timer !== null) return;
    this.mark = this.access.residentBytes();
    this.markedAt = this.now();
    this.timer = setInterval(() => void this.check(), this.checkMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  /** One look: releases when the resident size moved past the threshold, or the last release is old. */
  async check(): Promise<void> {
    const access = this.access;
    if (access === null || this.running) return;
    const before = access.residentBytes();
    const moved = Math.abs(before - this.mark) >= RELEASE_AFTER_CHANGE_BYTES;
    if (!moved && this.now() - this.markedAt < RELEASE_AT_LEAST_EVERY_MS) return;
    this.running = true;
    const started = performance.now();
    try {
      await access.release();
      const after = access.residentBytes();
      this.releaseMs += performance.now() - started;
      this.releases += 1;
      this.released += Math.max(0, before - after);
      this.mark = after;
    } catch {
      // A failed call releases nothing; the next look tries again.
      this.mark = before;
    } finally {
      this.markedAt = this.now();
      this.running = false;
    }
  }
}
