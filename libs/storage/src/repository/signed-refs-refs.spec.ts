import { compareUtf8, parseNid } from '@forge-httpd/identity';
import type { RefEntry } from '../git/git-repository.js';
import type { Oid } from '../git/objects/oid.js';
import { testKeyPair } from '../home/node-home-fixture.testing.js';
import { signedRefsRefs } from './remotes.js';

const NIDS = [1, 2, 3, 4, 5].map((seed) => testKeyPair(seed).nid);
/** Namespace names that sort right around each other and around a NID's `/`. */
const ODD = ['z', 'z.', 'z.x', 'z0', 'z/', '', 'a b', `${NIDS[0] as string}.x`, `${NIDS[0] as string}0`];
const TAILS = [
  'refs/rad/sigrefs',
  'refs/rad/sigrefs/x',
  'refs/rad/sigrefs-parent',
  'refs/rad/id',
  'refs/heads/main',
  'refs/cobs/xyz.forge.issue/1',
  'refs/rad/sigref',
  'refs/rad',
];

/** What a look at each name finds (the rule the binary searches must keep). */
function byEachName(listing: readonly RefEntry[]): { nid: string; oid: Oid }[] {
  const found: { nid: string; oid: Oid }[] = [];
  for (const ref of listing) {
    const nid = /^refs\/namespaces\/([^/]+)\/refs\/rad\/sigrefs$/.exec(ref.name)?.[1];
    if (nid === undefined) continue;
    try {
      found.push({ nid: parseNid(nid), oid: ref.oid });
    } catch {
      // Not a NID: not a peer.
    }
  }
  return found;
}

function xorshift(seed: number): () => number {
  let state = seed;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

describe('signedRefsRefs', () => {
  it('finds the same signed refs as a look at every name, in random listings', () => {
    for (let seed = 1; seed <= 300; seed += 1) {
      const random = xorshift(seed * 2654435761);
      const names = new Set<string>();
      const count = Math.floor(random() * 60);
      for (let i = 0; i < count; i += 1) {
        const namespaces = [...NIDS, ...ODD];
        const namespace = namespaces[Math.floor(random() * namespaces.length)] as string;
        const tail = TAILS[Math.floor(random() * TAILS.length)] as string;
        names.add(random() < 0.05 ? `refs/namespaces/${namespace}` : `refs/namespaces/${namespace}/${tail}`);
      }
      const listing = [...names].sort(compareUtf8).map((name, i) => ({ name, oid: i.toString(16).padStart(40, '0') as Oid }));
      expect(signedRefsRefs(listing)).toEqual(byEachName(listing));
    }
  });

  it('reads a big listing with a few namespaces', () => {
    const names: string[] = [];
    for (const nid of NIDS) {
      for (let i = 0; i < 5000; i += 1) names.push(`refs/namespaces/${nid}/refs/cobs/xyz.forge.issue/${String(i).padStart(40, '0')}`);
      names.push(`refs/namespaces/${nid}/refs/rad/sigrefs`, `refs/namespaces/${nid}/refs/heads/main`);
    }
    const listing = names.sort(compareUtf8).map((name) => ({ name, oid: 'a'.repeat(40) as Oid }));
    expect(signedRefsRefs(listing).map((ref) => ref.nid)).toEqual([...NIDS].sort(compareUtf8));
  });
});
