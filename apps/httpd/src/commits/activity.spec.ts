import { ACTIVITY_WINDOW_SECONDS, timesInActivityWindow } from './activity.js';

describe('timesInActivityWindow', () => {
  it('keeps only times strictly newer than 52 weeks before now, in their order', () => {
    const now = 1_800_000_000;
    const edge = now - ACTIVITY_WINDOW_SECONDS;
    expect(ACTIVITY_WINDOW_SECONDS).toBe(31_449_600);
    expect(timesInActivityWindow([now, edge + 1, edge, edge - 1, now + 10, edge + 2], now)).toEqual([now, edge + 1, now + 10, edge + 2]);
  });
});
