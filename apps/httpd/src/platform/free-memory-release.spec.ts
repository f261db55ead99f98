import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import v8 from 'node:v8';
import { FreeMemoryRelease, loadNativeMemoryRelease, RELEASE_AFTER_CHANGE_BYTES, RELEASE_AT_LEAST_EVERY_MS, type MemoryAccess } from './free-memory-release.js';

const MIB = 1024 * 1024;

/** A process whose resident size the test sets, and whose releases it sees. */
class ScriptedMemory implements MemoryAccess {
  resident = 100 * MIB;
  /** What a release takes off. */
  freed = 0;
  calls = 0;
  pending: Array<() => void> = [];
  holdReleases = false;

  residentBytes(): number {
    return this.resident;
  }

  release(): Promise<boolean> {
    this.calls += 1;
    const finish = (): boolean => {
      this.resident -= this.freed;
      return this.freed > 0;
    };
    if (!this.holdReleases) return Promise.resolve(finish());
    return new Promise((resolve) => this.pending.push(() => resolve(finish())));
  }
}

/** The clock of the releasers below: tests move it. */
let clock = 0;

/** A releaser of `memory` whose mark is set (as at start), driven by `check()` instead of its timer. */
function markedRelease(memory: MemoryAccess): FreeMemoryRelease {
  const release = new FreeMemoryRelease(memory, 5_000, () => clock);
  release.start();
  release.stop();
  return release;
}

describe('FreeMemoryRelease', () => {
  it('releases only once resident memory grew past the threshold since the last release', async () => {
    const memory = new ScriptedMemory();
    const release = markedRelease(memory);
    memory.resident += RELEASE_AFTER_CHANGE_BYTES - 1;
    await release.check();
    expect(memory.calls).toBe(0);
    memory.resident += 1;
    memory.freed = 3 * MIB;
    await release.check();
    expect(memory.calls).toBe(1);
    expect(release.releaseCount).toBe(1);
    expect(release.releasedBytes).toBe(3 * MIB);
    expect(release.releaseMilliseconds).toBeGreaterThanOrEqual(0);
    // Judged from what was left after the release: 1 MiB more is not enough.
    memory.resident += MIB;
    await release.check();
    expect(memory.calls).toBe(1);
  });

  it('releases when resident memory fell past the threshold too, then judges from there', async () => {
    const memory = new ScriptedMemory();
    const release = markedRelease(memory);
    memory.resident -= RELEASE_AFTER_CHANGE_BYTES - 1;
    await release.check();
    expect(memory.calls).toBe(0);
    // The JS heap gave pages back; what malloc keeps is released then.
    memory.resident -= 20 * MIB;
    memory.freed = 5 * MIB;
    await release.check();
    expect(memory.calls).toBe(1);
    expect(release.releasedBytes).toBe(5 * MIB);
    memory.freed = 0;
    memory.resident += RELEASE_AFTER_CHANGE_BYTES - 1;
    await release.check();
    expect(memory.calls).toBe(1);
  });

  it('releases at least every minute, whatever the size did', async () => {
    const memory = new ScriptedMemory();
    const release = markedRelease(memory);
    clock += RELEASE_AT_LEAST_EVERY_MS - 1;
    await release.check();
    expect(memory.calls).toBe(0);
    clock += 1;
    await release.check();
    expect(memory.calls).toBe(1);
    clock += RELEASE_AT_LEAST_EVERY_MS - 1;
    await release.check();
    expect(memory.calls).toBe(1);
  });

  it('makes one release at a time', async () => {
    const memory = new ScriptedMemory();
    memory.holdReleases = true;
    const release = markedRelease(memory);
    memory.resident += 2 * RELEASE_AFTER_CHANGE_BYTES;
    const first = release.check();
    await release.check();
    expect(memory.calls).toBe(1);
    memory.pending.shift()?.();
    await first;
    expect(release.releaseCount).toBe(1);
  });

  it('counts a release that took nothing off, and survives one that failed', async () => {
    const memory = new ScriptedMemory();
    const release = markedRelease(memory);
    memory.resident += RELEASE_AFTER_CHANGE_BYTES;
    await release.check();
    expect(release.releaseCount).toBe(1);
    expect(release.releasedBytes).toBe(0);
    memory.release = () => Promise.reject(new Error('no'));
    memory.resident += RELEASE_AFTER_CHANGE_BYTES;
    await expect(release.check()).resolves.toBeUndefined();
    expect(release.releaseCount).toBe(1);
  });

  it('does nothing without a way to release', async () => {
    const release = new FreeMemoryRelease(null);
    release.start();
    await release.check();
    expect(release.active).toBe(false);
    expect(release.releaseCount).toBe(0);
    release.stop();
  });
});

/** Resident anonymous memory of this process (malloc's arenas and the JS heap), from the kernel. */
function residentAnonymousBytes(): number {
  const match = /RssAnon:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return Number(match?.[1] ?? NaN) * 1024;
}

function collectFully(): void {
  v8.setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/** Whether this process runs on glibc, where the native module must be built and supported. */
const onGlibc =
  process.platform === 'linux' && typeof (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime === 'string';

(onGlibc ? describe : describe.skip)('the native release on this process (glibc)', () => {
  it('is built, and hands back what freed buffers left in the middle of the heap', async () => {
    const { module, problem } = loadNativeMemoryRelease();
    expect(problem).toBeNull();
    if (module === null) return;
    // ~150 MB of 1–2 KB buffers, every 50th kept: freed chunks with live ones between them,
    // which malloc keeps resident on its own.
    let buffers: Buffer[] | null = Array.from({ length: 100_000 }, (_, index) => Buffer.allocUnsafeSlow(1024 + (index % 8) * 128).fill(1));
    const kept = buffers.filter((_, index) => index % 50 === 0);
    buffers = null;
    collectFully();
    // Backing stores are freed by the collector's sweep; give it a moment.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const before = residentAnonymousBytes();
    expect(await module.releaseFreeMemory()).toBe(true);
    const after = residentAnonymousBytes();
    expect(before - after).toBeGreaterThan(50 * MIB);
    expect(kept.every((buffer) => buffer[0] === 1)).toBe(true);
  });
});
