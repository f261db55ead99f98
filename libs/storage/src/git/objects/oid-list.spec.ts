import { InvalidInputError } from '@forge-httpd/identity';
import { OidLineReader, OidList } from './oid-list.js';
import { type Oid } from './oid.js';

const ids = Array.from({ length: 600 }, (_, n) => (n * 2654435761).toString(16).padStart(8, '0').repeat(5).slice(0, 40) as Oid);

describe('OidList', () => {
  it('holds ids in order, 20 bytes each, and gives them back a slice at a time', () => {
    const list = OidList.of(ids);
    expect(list.length).toBe(600);
    expect(list.toArray()).toEqual(ids);
    expect(list.slice(256, 512)).toEqual(ids.slice(256, 512));
    expect(list.slice(590, 700)).toEqual(ids.slice(590));
    expect(list.slice(700)).toEqual([]);
    expect(() => OidList.of([ids[0] as Oid, 'zz' as Oid])).toThrow(InvalidInputError);
  });

  it('reads rev-list output straight from its bytes, and refuses anything else', () => {
    const output = Buffer.from(ids.map((oid) => `${oid}\n`).join(''), 'latin1');
    expect(OidList.fromLines(output)?.toArray()).toEqual(ids);
    expect(OidList.fromLines(Buffer.alloc(0))?.length).toBe(0);
    expect(OidList.fromLines(Buffer.from(`${ids[1]?.toUpperCase()}\n`))).toBeNull();
    expect(OidList.fromLines(Buffer.from(`${ids[0]}\r`))).toBeNull();
    expect(OidList.fromLines(Buffer.from(`${ids[0]}\n${ids[1]}`))).toBeNull();
  });

  it('reads output chunk by chunk, lines cut anywhere, past one block of ids', () => {
    const many = Array.from({ length: 9000 }, (_, n) => ids[n % ids.length] as Oid);
    const output = Buffer.from(many.map((oid) => `${oid}\n`).join(''), 'latin1');
    for (const size of [1, 7, 40, 41, 42, 4096, 65536]) {
      const reader = new OidLineReader();
      let accepted = true;
      for (let at = 0; at < output.length; at += size) accepted = reader.push(output.subarray(at, at + size)) && accepted;
      expect(accepted).toBe(true);
      expect(reader.finish()?.toArray()).toEqual(many);
    }
    const cut = new OidLineReader();
    cut.push(output.subarray(0, 100));
    expect(cut.finish()).toBeNull();
    const bad = new OidLineReader();
    expect(bad.push(Buffer.from(`${ids[0]}\n${ids[1]?.toUpperCase()}\n`))).toBe(false);
    expect(bad.push(Buffer.from(`${ids[2]}\n`))).toBe(false);
    expect(bad.finish()).toBeNull();
  });

  it('takes raw ids as they are, 20 bytes each', () => {
    const raw = Buffer.from(ids.slice(0, 3).join(''), 'hex');
    expect(OidList.fromRaw(raw).toArray()).toEqual(ids.slice(0, 3));
    expect(() => OidList.fromRaw(raw.subarray(1))).toThrow(InvalidInputError);
  });

  it('finds an id only where an id starts, and cuts the list before it', () => {
    const list = OidList.of(ids);
    expect(list.indexOf(ids[417] as Oid)).toBe(417);
    expect(list.indexOf('f'.repeat(40) as Oid)).toBe(-1);
    expect(list.indexOf('not an id' as Oid)).toBe(-1);
    // The last 10 bytes of one id and the first 10 of the next form no id of the list.
    const spanning = `${(ids[3] as string).slice(20)}${(ids[4] as string).slice(0, 20)}` as Oid;
    expect(list.indexOf(spanning)).toBe(-1);
    expect(list.take(417).toArray()).toEqual(ids.slice(0, 417));
    expect(OidList.EMPTY.length).toBe(0);
  });
});
