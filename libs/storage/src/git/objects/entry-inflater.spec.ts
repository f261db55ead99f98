import { InvalidDataError } from '@forge-httpd/identity';
import { deflateSync } from 'node:zlib';
import { EntryInflater } from './entry-inflater.js';

const inflater = new EntryInflater();
const inflateEntry = (compressed: Buffer, size: number): Buffer | null => inflater.inflate(compressed, size);

const commitText = (n: number): Buffer => Buffer.from(`tree ${'a'.repeat(40)}\nauthor A <a@example.com> ${1_700_000_000 + n} +0000\n\nmessage ${n}\n`);

describe('inflateEntry', () => {
  it('reuses one stream on this Node', () => {
    expect(inflater.inflatesThroughOneStream()).toBe(true);
  });

  it('inflates entry after entry to their own bytes, ignoring what follows each stream', () => {
    for (let n = 0; n < 50; n++) {
      const content = commitText(n);
      const followedByNextEntry = Buffer.concat([deflateSync(content), Buffer.from([0x95, 0x0a, 0x78, 0x9c, 1, 2, 3])]);
      const data = inflateEntry(followedByNextEntry, content.length);
      expect(data?.equals(content)).toBe(true);
    }
  });

  it('inflates empty and large entries', () => {
    expect(inflateEntry(deflateSync(Buffer.alloc(0)), 0)?.length).toBe(0);
    const large = Buffer.alloc(3 * 1024 * 1024 + 17, 'forge ');
    expect(inflateEntry(deflateSync(large), large.length)?.equals(large)).toBe(true);
  });

  it('answers null when the stream holds fewer or more bytes than declared', () => {
    const content = commitText(1);
    expect(inflateEntry(deflateSync(content), content.length + 1)).toBeNull();
    expect(inflateEntry(deflateSync(content), content.length - 1)).toBeNull();
    expect(inflateEntry(deflateSync(content), 0)).toBeNull();
    // The stream is usable again after each.
    expect(inflateEntry(deflateSync(content), content.length)?.equals(content)).toBe(true);
  });

  it('throws InvalidDataError for damaged or cut data, and inflates the next entry', async () => {
    const content = commitText(2);
    const whole = deflateSync(content);
    expect(() => inflateEntry(Buffer.from('x\x9c garbage that does not inflate'), 20)).toThrow(InvalidDataError);
    expect(inflateEntry(whole, content.length)?.equals(content)).toBe(true);
    expect(() => inflateEntry(whole.subarray(0, whole.length - 6), content.length)).toThrow(InvalidDataError);
    expect(inflateEntry(whole, content.length)?.equals(content)).toBe(true);
    // The damaged stream's own error event must not surface later as an uncaught exception.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(inflater.inflatesThroughOneStream()).toBe(true);
  });
});
