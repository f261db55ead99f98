import { runInNewContext } from 'node:vm';
import v8 from 'node:v8';
import { growingPercentFor, HeapHeadroom } from './heap-headroom.js';

const MIB = 1024 * 1024;

/** A full collection of this process's real heap (V8 hands out `gc` once `--expose-gc` is set). */
function collectFully(): void {
  v8.setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

async function until(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('growingPercentFor', () => {
  it('asks for the headroom as a share of the live heap', () => {
    expect(growingPercentFor(100 * MIB, 32 * MIB)).toBe(32);
    expect(growingPercentFor(64 * MIB, 32 * MIB)).toBe(50);
  });

  it('leaves a small heap to V8, whose own growth stays under the headroom', () => {
    expect(growingPercentFor(10 * MIB, 32 * MIB)).toBe(0);
    expect(growingPercentFor((32 * MIB) / 3, 32 * MIB)).toBe(0);
  });

  it('never asks for less than a quarter more, however large the live heap', () => {
    expect(growingPercentFor(1024 * MIB, 32 * MIB)).toBe(25);
  });

  it('leaves the growth to V8 without a headroom', () => {
    expect(growingPercentFor(100 * MIB, 0)).toBe(0);
  });
});

describe('HeapHeadroom on this process', () => {
  let headroom: HeapHeadroom | null = null;

  afterEach(() => {
    headroom?.stop();
    headroom = null;
    // Back to V8's own growth for the rest of the test run.
    v8.setFlagsFromString('--heap-growing-percent=0');
  });

  it('works the growth out at start and again after every full collection', async () => {
    // A headroom of a tenth of what is in use now: the growth is set, whatever the runner holds.
    const used = v8.getHeapStatistics().used_heap_size;
    headroom = new HeapHeadroom(Math.floor(used / 10));
    headroom.start();
    expect(headroom.adjustmentCount).toBe(1);
    expect(headroom.growingPercent).toBe(25);
    expect(headroom.liveBytes).toBeGreaterThan(0);
    collectFully();
    await until(() => headroom?.adjustmentCount === 2);
    expect(headroom.liveBytes).toBeLessThanOrEqual(v8.getHeapStatistics().total_heap_size);
  });

  it('stops governing, without throwing, when V8 refuses the flag', async () => {
    headroom = new HeapHeadroom(MIB, {
      usedBytes: () => 100 * MIB,
      setFlag: () => {
        throw new Error('flags are frozen');
      },
    });
    expect(() => headroom?.start()).not.toThrow();
    expect(headroom.growingPercent).toBe(0);
    // No longer following collections.
    collectFully();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(headroom.adjustmentCount).toBe(1);
  });

  it('follows no collection once stopped, and none without a headroom', async () => {
    headroom = new HeapHeadroom(0);
    headroom.start();
    expect(headroom.adjustmentCount).toBe(0);
    const stopped = new HeapHeadroom(1024 * MIB);
    stopped.start();
    stopped.stop();
    collectFully();
    // A turn for the collection's entry to arrive, were anyone listening.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stopped.adjustmentCount).toBe(1);
    expect(stopped.growingPercent).toBe(0);
  });
});
