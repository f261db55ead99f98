import { DEFAULT_MEMORY_BUDGET_MIB, divideMemoryBudget } from './memory-budget.js';

const MIB = 1024 * 1024;

describe('divideMemoryBudget', () => {
  it('gives the default budget room for a 50,000-commit history and a 12,000-object tracker', () => {
    const bounds = divideMemoryBudget(DEFAULT_MEMORY_BUDGET_MIB);
    expect(bounds.responseBytes).toBe(44 * MIB);
    expect(bounds.diffBlobBytes).toBe(4 * MIB);
    expect(bounds.urlIndexBytes).toBe(4 * MIB);
    expect(bounds.reachabilityCommits).toBeGreaterThanOrEqual(160_000);
    expect(bounds.lastCommitBytes).toBe(16 * MIB);
    expect(bounds.cobStoreBytes).toBe(36 * MIB);
    expect(bounds.heapHeadroomBytes).toBe(64 * MIB);
    expect(bounds.youngGenerationBytes).toBe(16 * MIB);
  });

  it('never bounds the young generation below 8 MiB', () => {
    expect(divideMemoryBudget(16).youngGenerationBytes).toBe(8 * MIB);
    expect(divideMemoryBudget(1024).youngGenerationBytes).toBe(128 * MIB);
  });

  it.each([16, 128, 1024])('keeps the shares of %i MiB within the budget, with headroom left', (budget) => {
    const bounds = divideMemoryBudget(budget);
    const bytes =
      bounds.responseBytes +
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

  it('turns the caches and the heap bound off with a budget of 0', () => {
    expect(Object.values(divideMemoryBudget(0))).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  });
});
