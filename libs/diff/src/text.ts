/**
 * Byte ↔ text helpers. Decoding is strict where the wire format uses `null` for non-UTF-8
 * (diff lines and hunk headers, docs/decisions.md) and lossy for paths.
 */
import { isUtf8 } from 'node:buffer';
import type { LineText } from './types.js';

/**
 * Decodes bytes as UTF-8, keeping a byte-order mark (unlike `TextDecoder`'s default).
 * @param bytes - the bytes
 * @returns the text, or null when the bytes are not valid UTF-8
 */
export function decodeUtf8OrNull(bytes: Uint8Array): string | null {
  if (!isUtf8(bytes)) return null;
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return buffer.toString('utf8');
}

/**
 * Decodes `source[start, end)` as a hunk line, keeping the exact bytes only when they are not
 * UTF-8. Decodes first and validates only when the text holds U+FFFD (the decoder's
 * replacement), which keeps the common case free of extra allocations.
 * @param source - the whole diff output
 * @param start - first byte of the line content (after git's origin character)
 * @param end - end of the content (after its newline, when it has one)
 * @returns the decoded line
 */
export function lineTextOf(source: Buffer, start: number, end: number): LineText {
  const text = source.toString('utf8', start, end);
  if (!text.includes('\ufffd') || isUtf8(source.subarray(start, end))) return { text };
  return { text: null, raw: Buffer.from(source.subarray(start, end)) };
}

/**
 * The exact bytes of a hunk line's content.
 * @param line - a decoded line
 * @returns its bytes (re-encoded from the text when it was valid UTF-8)
 */
export function lineBytesOf(line: LineText): Buffer {
  return line.raw ?? Buffer.from(line.text ?? '', 'utf8');
}
