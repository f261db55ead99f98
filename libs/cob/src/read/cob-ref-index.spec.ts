import { compareUtf8 } from '@forge-httpd/identity';
import type { Oid, RefEntry } from '@forge-httpd/storage';
import { type CobRefChanges, type CobRefIndex, indexCobRefs, updateCobRefIndex } from './cob-ref-index.js';
import { generator } from '../testing/random.testing.js';

// An index updated by the refs that changed since the last listing must be the index of the
// new listing, whatever changed; the index it was updated from must stay as it was.

const hex = (n: number): Oid => n.toString(16).padStart(40, '0') as Oid;
const NAMESPACES = ['z6MkA', 'z6MkB', 'z6MkC', 'z6MkD'];
const TYPES = ['xyz.forge.issue', 'xyz.forge.patch', 'xyz.forge.id'];

/** A ref of some namespace: mostly COB tips of a few objects (so tips are shared), some branches. */
function randomRef(next: (below: number) => number): RefEntry {
  const namespace = NAMESPACES[next(NAMESPACES.length)] as string;
  if (next(5) === 0) return { name: `refs/namespaces/${namespace}/refs/heads/b${next(4)}`, oid: hex(1000 + next(6)) };
  const type = TYPES[next(TYPES.length)] as string;
  return { name: `refs/namespaces/${namespace}/refs/cobs/${type}/${hex(next(12))}`, oid: hex(2000 + next(5)) };
}

const sorted = (refs: Map<string, Oid>): RefEntry[] => [...refs].map(([name, oid]) => ({ name, oid })).sort((a, b) => compareUtf8(a.name, b.name));

/** The index as plain data, in a fixed order (the maps' own order is not part of it). */
function plain(index: CobRefIndex): unknown {
  const objects = [...index.objects]
    .map(([type, byId]) => [type, [...byId].sort(([a], [b]) => compareUtf8(a, b))] as const)
    .sort(([a], [b]) => compareUtf8(a, b));
  return { objects, refs: [...index.refs].sort(([a], [b]) => compareUtf8(a, b)) };
}

/** Changes in the shape {@link plain} gives an index (tips left empty), to compare them as one. */
function changesAsIndex(changes: CobRefChanges): CobRefIndex {
  const objects = new Map([...changes.objects].map(([type, ids]) => [type, new Map([...ids].map((id) => [id, [] as Oid[]]))]));
  return { objects, refs: new Map([...changes.refs].map((name) => [name, '' as Oid])) };
}

/** What differs between two indexes: refs added, moved or gone, and objects with such a COB ref. */
function difference(a: CobRefIndex, b: CobRefIndex): unknown {
  const refs = new Map<string, Oid>();
  for (const name of new Set([...a.refs.keys(), ...b.refs.keys()])) if (a.refs.get(name) !== b.refs.get(name)) refs.set(name, '' as Oid);
  const objects = new Map<string, Map<Oid, Oid[]>>();
  for (const name of refs.keys()) {
    const match = /\/refs\/cobs\/([^/]+)\/([0-9a-f]{40})$/.exec(name);
    if (match === null) continue;
    const byId = objects.get(match[1] as string) ?? new Map<Oid, Oid[]>();
    byId.set(match[2] as Oid, []);
    objects.set(match[1] as string, byId);
  }
  return plain({ objects, refs });
}

describe('indexCobRefs', () => {
  it('updated by the refs that changed, equals the index of the new listing', () => {
    for (let seed = 1; seed <= 40; seed += 1) {
      const next = generator(seed);
      const refs = new Map<string, Oid>();
      for (let i = 0; i < 30; i += 1) {
        const ref = randomRef(next);
        refs.set(ref.name, ref.oid);
      }
      let entries = sorted(refs);
      let index = indexCobRefs(entries);
      for (let step = 0; step < 25; step += 1) {
        // Add, move or remove a few refs, sometimes none; at times many (indexed whole then).
        const changes = next(8) === 0 ? 300 : next(4);
        for (let c = 0; c < changes; c += 1) {
          const ref = randomRef(next);
          if (next(3) === 0) refs.delete(ref.name);
          else refs.set(ref.name, ref.oid);
        }
        // Listings built over the same packed refs share their unchanged entries.
        const byName = new Map(entries.map((entry) => [entry.name, entry]));
        const nextEntries = sorted(refs).map((entry) => {
          const kept = byName.get(entry.name);
          return kept !== undefined && kept.oid === entry.oid && next(2) === 0 ? kept : entry;
        });
        const before = plain(index);
        const { index: updated, changes: reported } = updateCobRefIndex(nextEntries, { entries, index });
        expect({ seed, step, index: plain(updated) }).toEqual({ seed, step, index: plain(indexCobRefs(nextEntries)) });
        expect(plain(index)).toEqual(before);
        if (reported !== null) expect({ seed, step, changes: plain(changesAsIndex(reported)) }).toEqual({ seed, step, changes: difference(index, updated) });
        entries = nextEntries;
        index = updated;
      }
    }
  });

  it('drops an object whose last tip went and a type whose last object went', () => {
    const tip = { name: `refs/namespaces/z6MkA/refs/cobs/xyz.forge.job/${hex(7)}`, oid: hex(9) };
    const branch = { name: 'refs/namespaces/z6MkA/refs/heads/main', oid: hex(8) };
    const first = indexCobRefs([tip, branch]);
    expect(first.objects.get('xyz.forge.job')?.get(hex(7))).toEqual([hex(9)]);
    const second = indexCobRefs([branch], { entries: [tip, branch], index: first });
    expect(second.objects.has('xyz.forge.job')).toBe(false);
    expect([...second.refs]).toEqual([[branch.name, branch.oid]]);
  });
});
