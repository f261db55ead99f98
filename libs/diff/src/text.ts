/**
 * Byte ↔ text helpers. Decoding is strict where the wire format uses `null` for non-UTF-8
 * (diff lines and hunk headers, behaviour Part A) and lossy for paths.
 */
import { isUtf8 } from 'node:buffer';
import type { LineText } from './types.js';

/**
 * Decodes bytes as UTF-8, keeping a byte-order mark (unlike `TextDecoder`'s default).
 * @param bytes - the bytes
 * @returns the text, or null when the bytes are not valid UTF-8
 */
export function decodeUtf8OrNull(bytes: Uint8Array): string | null {
  return isUtf8(bytes) ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8') : null;
}

/**
 * Builds the text of a hunk line, keeping the exact bytes only when they are not UTF-8.
 * @param bytes - the line content without git's origin character
 * @returns the decoded line
 */
export function lineTextOf(bytes: Buffer): LineText {
  const text = decodeUtf8OrNull(bytes);
  return text === null ? { text, raw: Buffer.from(bytes) } : { text };
}

/**
 * The exact bytes of a hunk line's content.
 * @param line - a decoded line
 * @returns its bytes (re-encoded from the text when it was valid UTF-8)
 */
export function lineBytesOf(line: LineText): Buffer {
  return line.raw ?? Buffer.from(line.text ?? '', 'utf8');
}
