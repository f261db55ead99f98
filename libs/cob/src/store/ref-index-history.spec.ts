import type { Oid } from '@forge-httpd/storage';
import type { CobRefChanges, CobRefIndex } from '../read/cob-ref-index.js';
import { RefIndexHistory } from './ref-index-history.js';

// What changed between two of a store's indexes is told only when recorded steps join them,
// and then it holds every ref and object that changed on the way.

const index = (): CobRefIndex => ({ objects: new Map(), refs: new Map() });
const id = (n: number): Oid => n.toString(16).padStart(40, '0') as Oid;
const step = (n: number): CobRefChanges => ({
  refs: new Set([`refs/namespaces/z6MkA/refs/cobs/xyz.forge.issue/${id(n)}`, `refs/namespaces/z6MkA/refs/heads/b${n}`]),
  objects: new Map([['xyz.forge.issue', new Set([id(n)])]]),
});

/** A history of `count` indexes, each updated from the one before by {@link step} of its number. */
function chain(count: number): { history: RefIndexHistory; indexes: CobRefIndex[] } {
  const history = new RefIndexHistory();
  const indexes = [index()];
  history.record(undefined, indexes[0] as CobRefIndex, null);
  for (let n = 1; n < count; n += 1) {
    indexes.push(index());
    history.record(indexes[n - 1], indexes[n] as CobRefIndex, step(n));
  }
  return { history, indexes };
}

describe('RefIndexHistory', () => {
  it('tells the changes of every step between an earlier index and a later one', () => {
    const { history, indexes } = chain(6);
    const between = history.changesBetween(indexes[1] as CobRefIndex, indexes[4] as CobRefIndex);
    expect(between?.objects).toEqual(new Map([['xyz.forge.issue', new Set([id(2), id(3), id(4)])]]));
    expect([...(between?.refs ?? [])].sort()).toEqual([...step(2).refs, ...step(3).refs, ...step(4).refs].sort());
    expect(history.changesBetween(indexes[4] as CobRefIndex, indexes[5] as CobRefIndex)).toEqual(step(5));
    expect(history.changesBetween(indexes[3] as CobRefIndex, indexes[3] as CobRefIndex)).toEqual({ refs: new Set(), objects: new Map() });
  });

  it('tells nothing backwards, for an index it never recorded, or across one indexed whole', () => {
    const { history, indexes } = chain(4);
    expect(history.changesBetween(indexes[3] as CobRefIndex, indexes[1] as CobRefIndex)).toBeUndefined();
    expect(history.changesBetween(index(), indexes[2] as CobRefIndex)).toBeUndefined();
    const whole = index();
    history.record(indexes[3], whole, null);
    const after = index();
    history.record(whole, after, step(9));
    expect(history.changesBetween(indexes[1] as CobRefIndex, after)).toBeUndefined();
    expect(history.changesBetween(whole, after)).toEqual(step(9));
  });

  it('forgets steps past the last 32, and sums no more than 1,024 changed refs', () => {
    const { history, indexes } = chain(40);
    expect(history.changesBetween(indexes[7] as CobRefIndex, indexes[39] as CobRefIndex)?.objects.get('xyz.forge.issue')?.size).toBe(32);
    expect(history.changesBetween(indexes[6] as CobRefIndex, indexes[39] as CobRefIndex)).toBeUndefined();
    const big = new RefIndexHistory();
    const [a, b, c] = [index(), index(), index()];
    const many = (from: number): CobRefChanges => ({ refs: new Set(Array.from({ length: 600 }, (_, i) => `refs/heads/${from + i}`)), objects: new Map() });
    big.record(undefined, a, null);
    big.record(a, b, many(0));
    big.record(b, c, many(600));
    expect(big.changesBetween(b, c)?.refs.size).toBe(600);
    expect(big.changesBetween(a, c)).toBeUndefined();
  });
});
