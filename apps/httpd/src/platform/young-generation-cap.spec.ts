import v8 from 'node:v8';
import { YoungGenerationCap, youngGrowthFactorFor, type YoungGenerationAccess } from './young-generation-cap.js';

const MIB = 1024 * 1024;

/** A young generation that the test sizes, and the flags the cap set on it. */
function fakeYoungGeneration(sizeBytes: number): YoungGenerationAccess & { size: number; flags: string[] } {
  const fake = {
    size: sizeBytes,
    flags: [] as string[],
    sizeBytes: () => fake.size,
    setFlag: (flag: string) => {
      fake.flags.push(flag);
    },
  };
  return fake;
}

/** Allocates short-lived objects for a while, in turns, so the young generation is collected. */
async function churn(turns: number): Promise<void> {
  let kept: unknown[] = [];
  for (let turn = 0; turn < turns; turn += 1) {
    for (let i = 0; i < 20_000; i += 1) {
      kept.push({ i, text: `value ${i}` });
      if (kept.length > 10_000) kept = [];
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const youngSize = (): number => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;

describe('youngGrowthFactorFor', () => {
  it('lets V8 double the young generation while the doubled size fits the cap', () => {
    expect(youngGrowthFactorFor(4 * MIB, 16 * MIB)).toBe(2);
    expect(youngGrowthFactorFor(8 * MIB, 16 * MIB)).toBe(2);
  });

  it('stops the growth once one more doubling would pass the cap', () => {
    expect(youngGrowthFactorFor(16 * MIB, 16 * MIB)).toBe(1);
    expect(youngGrowthFactorFor(12 * MIB, 16 * MIB)).toBe(1);
    expect(youngGrowthFactorFor(32 * MIB, 16 * MIB)).toBe(1);
  });
});

describe('YoungGenerationCap', () => {
  afterEach(() => {
    // V8's own growth for the rest of the test run.
    v8.setFlagsFromString('--semi-space-growth-factor=2');
  });

  it('sets the factor only when it changes, and gives V8 its own growth back when stopped', () => {
    const young = fakeYoungGeneration(16 * MIB);
    const cap = new YoungGenerationCap(16 * MIB, young);
    cap.start();
    expect(young.flags).toEqual(['--semi-space-growth-factor=1']);
    expect(cap.growthFactor).toBe(1);
    expect(cap.sizeBytes).toBe(16 * MIB);
    cap.stop();
    expect(young.flags).toEqual(['--semi-space-growth-factor=1', '--semi-space-growth-factor=2']);
  });

  it('follows a resize, and stops capping at 0', () => {
    const young = fakeYoungGeneration(8 * MIB);
    const cap = new YoungGenerationCap(8 * MIB, young);
    cap.start();
    expect(cap.growthFactor).toBe(1);
    cap.resize(32 * MIB);
    expect(cap.capBytes).toBe(32 * MIB);
    expect(cap.growthFactor).toBe(2);
    cap.resize(0);
    expect(young.flags.at(-1)).toBe('--semi-space-growth-factor=2');
    cap.resize(8 * MIB);
    expect(cap.growthFactor).toBe(1);
    cap.stop();
  });

  it('does nothing without a cap', () => {
    const young = fakeYoungGeneration(32 * MIB);
    new YoungGenerationCap(0, young).start();
    expect(young.flags).toEqual([]);
  });

  it('stops capping, without throwing, when V8 refuses the flag', () => {
    const cap = new YoungGenerationCap(MIB, {
      sizeBytes: () => 16 * MIB,
      setFlag: () => {
        throw new Error('flags are frozen');
      },
    });
    expect(() => cap.start()).not.toThrow();
    expect(cap.growthFactor).toBe(2);
    expect(() => cap.stop()).not.toThrow();
  });

  it("keeps this process's young generation from growing past its size", async () => {
    // Capped at what it is now: however much survives the churn below, it does not grow.
    const before = youngSize();
    const cap = new YoungGenerationCap(before);
    cap.start();
    try {
      expect(cap.growthFactor).toBe(1);
      await churn(200);
      expect(youngSize()).toBeLessThanOrEqual(before);
      expect(cap.sizeBytes).toBeLessThanOrEqual(before);
    } finally {
      cap.stop();
    }
  });
});
