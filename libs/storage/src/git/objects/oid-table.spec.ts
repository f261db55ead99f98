import { createHash } from 'node:crypto';
import type { Oid } from './oid.js';
import { OidTable } from './oid-table.js';

const oid = (n: number): Oid => createHash('sha1').update(String(n)).digest('hex') as Oid;

describe('OidTable', () => {
  it('numbers ids in the order they are added and finds each again past several growths', () => {
    const table = new OidTable();
    const count = 5000;
    for (let n = 0; n < count; n += 1) expect(table.add(oid(n))).toBe(n);
    expect(table.length).toBe(count);
    for (let n = 0; n < count; n += 1) {
      expect(table.idOf(oid(n))).toBe(n);
      expect(table.at(n)).toBe(oid(n));
    }
    expect(table.idOf(oid(count))).toBeUndefined();
    expect(table.rawIds.length).toBe(count * 20);
    expect(table.rawIds.toString('hex', 20 * 7, 20 * 8)).toBe(oid(7));
  });

  it('tells ids apart that share their first bytes (the slot they hash to)', () => {
    const table = new OidTable();
    const a = `${'ab'.repeat(4)}${'0'.repeat(32)}` as Oid;
    const b = `${'ab'.repeat(4)}${'1'.repeat(32)}` as Oid;
    table.add(a);
    expect(table.idOf(b)).toBeUndefined();
    table.add(b);
    expect([table.idOf(a), table.idOf(b)]).toEqual([0, 1]);
  });
});
