import { setImmediate as nextTurn } from 'node:timers/promises';

/** Strings up to this many UTF-16 units are encoded in one go (about 1–3 ms). */
const SLICE_UNITS = 1 << 20;

/**
 * The UTF-8 bytes of a serialized body. A multi-megabyte JSON text takes milliseconds to encode
 * in one call (more for two-byte strings), on top of the JSON.stringify just before it in the
 * same turn; so long texts are encoded in 1 Mi-unit slices, one per turn of
 * the event loop, never splitting a surrogate pair.
 */
export function encodeUtf8(text: string): Buffer | Promise<Buffer> {
  if (text.length <= SLICE_UNITS) return Buffer.from(text, 'utf8');
  return encodeInSlices(text);
}

async function encodeInSlices(text: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (let start = 0; start < text.length;) {
    await nextTurn();
    let end = Math.min(start + SLICE_UNITS, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    parts.push(Buffer.from(text.slice(start, end), 'utf8'));
    start = end;
  }
  return Buffer.concat(parts);
}
