import { COB_STORE_BYTES_PER_LISTED_OBJECT } from '@forge-httpd/cob';
import { DEFAULT_MEMORY_BUDGET_MIB, divideMemoryBudget } from './memory-budget.js';

const MIB = 1024 * 1024;

describe('divideMemoryBudget', () => {
  it('gives the default budget room for a 50,000-commit history and a 12,000-object tracker', () => {
    const bounds = divideMemoryBudget(DEFAULT_MEMORY_BUDGET_MIB);
    expect(DEFAULT_MEMORY_BUDGET_MIB).toBe(64);
    expect(bounds.responseBytes).toBe(17 * MIB);
    expect(bounds.compressedBodyBytes).toBe(1 * MIB);
    expect(bounds.diffBlobBytes).toBe(2 * MIB);
    expect(bounds.urlIndexBytes).toBe(2 * MIB);
    expect(bounds.reachabilityCommits).toBeGreaterThanOrEqual(80_000);
    expect(bounds.lastCommitBytes).toBe(12 * MIB);
    // The benchmark's 50,000-commit history: 131,640 changed paths, estimated as the index does.
    expect(bounds.lastCommitBytes).toBeGreaterThan(50_000 * 200 + 131_640 * 8);
    expect(bounds.cobStoreBytes).toBe(18 * MIB);
    // Its 10,000-issue tracker with a cache directory: 26,009 refs and 12,000 objects without views.
    expect(bounds.cobStoreBytes).toBeGreaterThan(26_009 * 400 + 12_000 * COB_STORE_BYTES_PER_LISTED_OBJECT);
    expect(bounds.heapHeadroomBytes).toBe(32 * MIB);
    expect(bounds.youngGenerationBytes).toBe(8 * MIB);
    // Eight whole 50,000-commit histories' ids in long answers at once.
    expect(bounds.heldCommitIdBytes).toBe(8 * MIB);
    expect(bounds.heldCommitIdBytes).toBeGreaterThanOrEqual(8 * 50_000 * 20);
    expect(bounds.unsentAnswerBytes).toBe(64 * MIB);
  });

  it('never bounds the young generation below 8 MiB', () => {
    expect(divideMemoryBudget(16).youngGenerationBytes).toBe(8 * MIB);
    expect(divideMemoryBudget(1024).youngGenerationBytes).toBe(128 * MIB);
  });

  it.each([16, 64, 128, 1024])('keeps the shares of %i MiB within the budget, with headroom left', (budget) => {
    const bounds = divideMemoryBudget(budget);
    const bytes =
      bounds.responseBytes +
      bounds.compressedBodyBytes +
      bounds.urlIndexBytes +
      bounds.reachabilityCommits * 80 +
      bounds.lastCommitBytes +
      bounds.commitTimesBytes +
      bounds.treeBytes +
      bounds.diffBlobBytes +
      bounds.cobStoreBytes;
    expect(bytes).toBeLessThanOrEqual(budget * MIB);
    expect(bytes).toBeGreaterThan(budget * MIB * 0.9);
  });

  it('turns the caches and the heap bound off with a budget of 0 (one long answer at a time)', () => {
    const { unsentAnswerBytes, ...bounds } = divideMemoryBudget(0);
    expect(Object.values(bounds)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    // Answers in flight to slow clients: a few big pages still.
    expect(unsentAnswerBytes).toBe(16 * MIB);
  });
});
