import type { Nid } from '@forge-httpd/identity';
import type { NodeHome } from '@forge-httpd/storage';
import { NodeFactsMemo } from './node-facts.js';

/** A home whose databases answer aliases from maps and count their queries; `stamps` are the change stamps. */
function fakeHome(stamps: { policies: string; node: string }): { home: NodeHome; queries: { follow: number; alias: number } } {
  const queries = { follow: 0, alias: 0 };
  const home = {
    policiesDb: {
      changeStamp: () => stamps.policies,
      followAlias: (nid: string) => {
        queries.follow += 1;
        return nid.endsWith('1') ? 'followed' : null;
      },
    },
    nodeDb: {
      changeStamp: () => stamps.node,
      alias: () => {
        queries.alias += 1;
        return 'announced';
      },
    },
  } as unknown as NodeHome;
  return { home, queries };
}

describe('NodeFactsMemo', () => {
  it('remembers aliases across requests while both databases are unchanged, and reads again after a change', () => {
    const stamps = { policies: 'p1', node: 'n1' };
    const { home, queries } = fakeHome(stamps);
    const memo = new NodeFactsMemo(home);
    for (let i = 0; i < 3; i += 1) {
      const facts = memo.current();
      expect([facts.aliasOfNid('z1' as Nid), facts.aliasOfNid('z2' as Nid)]).toEqual(['followed', 'announced']);
    }
    expect(queries).toEqual({ follow: 2, alias: 1 });
    stamps.node = 'n2';
    expect(memo.current().aliasOfNid('z2' as Nid)).toBe('announced');
    expect(queries).toEqual({ follow: 2, alias: 2 });
    stamps.policies = 'p2';
    expect(memo.current().aliasOfNid('z1' as Nid)).toBe('followed');
    expect(queries).toEqual({ follow: 3, alias: 2 });
  });

  it('keeps at most 65,536 aliases of each kind', () => {
    const { home, queries } = fakeHome({ policies: 'p', node: 'n' });
    const facts = new NodeFactsMemo(home).current();
    for (let i = 0; i <= 65_536; i += 1) facts.aliasOfNid(`z${i}0` as Nid);
    const before = { ...queries };
    // The first one asked was dropped for the last; the second is still kept.
    facts.aliasOfNid('z10' as Nid);
    facts.aliasOfNid('z00' as Nid);
    expect(queries.follow - before.follow).toBe(1);
  });
});
