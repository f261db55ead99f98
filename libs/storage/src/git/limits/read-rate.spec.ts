import { ReadRate } from './read-rate.js';

describe('ReadRate', () => {
  it('counts the reads of the current window and starts again in the next', () => {
    let now = 10_000;
    const rate = new ReadRate(1000, () => now);
    expect([rate.add(), rate.add(), rate.add()]).toEqual([1, 2, 3]);
    now += 999;
    expect(rate.add()).toBe(4);
    now += 1;
    expect([rate.add(), rate.add()]).toEqual([1, 2]);
  });
});
