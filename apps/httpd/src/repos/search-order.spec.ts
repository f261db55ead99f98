import { ridFromOid, type Rid } from '@forge-httpd/identity';
import { compareSearchMatches, type SearchMatch, searchMatchIndex } from './search-order.js';

const rid = (byte: string): Rid => ridFromOid(byte.repeat(40));

describe('searchMatchIndex', () => {
  it.each([
    ['hello-world', 'hello', 0],
    ['hello-world', 'WORLD', 6],
    ['Hello', 'hEL', 0],
    ['hello', '', 0],
    ['hello', 'x', -1],
  ])('finds %j in %j at %d, ignoring case', (name, q, index) => {
    expect(searchMatchIndex(name, q)).toBe(index);
  });
});

describe('compareSearchMatches', () => {
  it('orders position-0 matches first, then seeds descending, then RID bytes', () => {
    const matches: SearchMatch[] = [
      { rid: rid('3'), index: 4, seeds: 9 },
      { rid: rid('2'), index: 0, seeds: 1 },
      { rid: rid('1'), index: 0, seeds: 1 },
      { rid: rid('4'), index: 0, seeds: 5 },
      { rid: rid('5'), index: 1, seeds: 9 },
    ];
    const sorted = [...matches].sort(compareSearchMatches).map((m) => m.rid);
    expect(sorted).toEqual([rid('4'), rid('1'), rid('2'), rid('3'), rid('5')]);
  });
});
