import { jest } from '@jest/globals';
import { collectPage, pageRange } from './pagination.js';

const items = [1, 2, 3, 4, 5];

describe('pageRange', () => {
  it.each([
    [
      { page: 0, perPage: 2 },
      { start: 0, count: 2 },
    ],
    [
      { page: 2, perPage: 2 },
      { start: 4, count: 2 },
    ],
    [{ page: 0, perPage: 0 }, null],
    [{ page: 9007199254740991, perPage: 9007199254740991 }, null],
    [
      { page: 1, perPage: 9007199254740991 },
      { start: 9007199254740991, count: 9007199254740991 },
    ],
    [{ page: 2, perPage: 2 ** 52 }, null],
  ])('turns %j into %j', (request, expected) => {
    expect(pageRange(request)).toEqual(expected);
  });
});

describe('collectPage', () => {
  it('skips candidates that do not build and counts only built items', async () => {
    const built: number[] = [];
    const page = await collectPage(items, { page: 1, perPage: 1 }, async (n) => {
      built.push(n);
      return n % 2 === 0 ? null : n * 10;
    });
    expect(page).toEqual([30]);
    expect(built).toEqual([1, 2, 3]);
  });

  it('builds nothing for an empty or unreachable page', async () => {
    const build = jest.fn(async (n: number) => n);
    expect(await collectPage(items, { page: 0, perPage: 0 }, build)).toEqual([]);
    expect(await collectPage(items, { page: 2 ** 52, perPage: 2 ** 10 }, build)).toEqual([]);
    expect(build).not.toHaveBeenCalled();
  });
});
