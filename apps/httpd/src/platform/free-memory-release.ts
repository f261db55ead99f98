/**
 * Gives the memory malloc keeps after frees back to the kernel, now and then (README, "Memory").
 *
 * glibc returns freed memory on its own only from the top of an arena; what bursts of big
 * answers leave in the middle stays resident. In the full bench run the process then sat at
 * ~300 MB through the soak, of which `malloc_trim` handed back ~35 MB, and after 200 stalled
 * readers of big pages one call took it from 728 to 340 MB (tools/bench/README.md, "Memory
 * malloc kept after bursts"). Node cannot ask for that, so a small native module of ours does
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
export const RELEASE_CHECK_MS = 5_000;

/**
 * Growth of resident memory since the last release that makes the next one worth it. A call
 * costs ~1–35 ms of one pool thread (35 ms for 260 MB freed), and malloc's other callers wait
 * for its locks meanwhile, so an idle or steady process is left alone.
 */
export const RELEASE_AFTER_GROWTH_BYTES = 4 * 1024 * 1024;

/** How the releaser reads the process and releases (tests pass their own). */
export interface MemoryAccess {
  residentBytes(): number;
  release(): Promise<boolean>;
}

/** Releases malloc's free memory when the process grew since the last time. */
export class FreeMemoryRelease {
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  /** Resident bytes right after the last release (or at start). */
  private floor = 0;
  private releases = 0;
  private released = 0;

  /**
   * @param access - the process's memory and the native release; null: never releases
   * @param checkMs - how often the resident size is read
   */
  constructor(
    private readonly access: MemoryAccess | null,
    private readonly checkMs: number = RELEASE_CHECK_MS,
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

  start(): void {
    if (this.access === null || this.timer !== null) return;
    this.floor = this.access.residentBytes();
    this.timer = setInterval(() => void this.check(), this.checkMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  /** One look: releases when resident memory grew past the threshold since the last release. */
  async check(): Promise<void> {
    const access = this.access;
    if (access === null || this.running) return;
    const before = access.residentBytes();
    if (before - this.floor < RELEASE_AFTER_GROWTH_BYTES) {
      // Memory that went down on its own lowers the mark, so later growth is judged from there.
      this.floor = Math.min(this.floor, before);
      return;
    }
    this.running = true;
    try {
      await access.release();
      const after = access.residentBytes();
      this.releases += 1;
      this.released += Math.max(0, before - after);
      this.floor = after;
    } catch {
      // A failed call releases nothing; the next look tries again.
    } finally {
      this.running = false;
    }
  }
}
