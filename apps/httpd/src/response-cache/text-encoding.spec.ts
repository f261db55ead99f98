import { encodeUtf8 } from './text-encoding.js';

describe('encodeUtf8', () => {
  it('encodes short texts at once', () => {
    expect(encodeUtf8('{"é":"😀"}')).toEqual(Buffer.from('{"é":"😀"}'));
  });

  it('encodes long texts in turns without splitting a surrogate pair at a slice end', async () => {
    // The emoji's high surrogate sits exactly at the end of the first 1 Mi-unit slice.
    const text = `${'a'.repeat((1 << 20) - 1)}😀${'ü'.repeat(1 << 20)}`;
    const encoded = encodeUtf8(text);
    expect(Buffer.isBuffer(encoded)).toBe(false);
    expect((await encoded).equals(Buffer.from(text, 'utf8'))).toBe(true);
  });
});
