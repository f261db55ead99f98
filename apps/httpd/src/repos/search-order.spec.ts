import { ridFromOid, type Rid } from '@forge-httpd/identity';
import { compareSearchMatches, type SearchMatch } from './search-order.js';
import { MatchTier } from './text-search.js';

const rid = (byte: string): Rid => ridFromOid(byte.repeat(40));

describe('compareSearchMatches', () => {
  it('orders by tier (name at 0, name elsewhere, description, words), then seeds descending, then RID bytes', () => {
    const matches: SearchMatch[] = [
      { rid: rid('3'), tier: MatchTier.NameElsewhere, seeds: 9 },
      { rid: rid('2'), tier: MatchTier.NameStart, seeds: 1 },
      { rid: rid('1'), tier: MatchTier.NameStart, seeds: 1 },
      { rid: rid('4'), tier: MatchTier.NameStart, seeds: 5 },
      { rid: rid('6'), tier: MatchTier.Words, seeds: 99 },
      { rid: rid('7'), tier: MatchTier.Description, seeds: 0 },
      { rid: rid('5'), tier: MatchTier.NameElsewhere, seeds: 10 },
    ];
    const sorted = [...matches].sort(compareSearchMatches).map((m) => m.rid);
    expect(sorted).toEqual([rid('4'), rid('1'), rid('2'), rid('5'), rid('3'), rid('7'), rid('6')]);
  });
});
