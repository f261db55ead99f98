/**
 * Line-by-line parsing of git output that keeps each field a string of its own.
 *
 * A substring of a decoded text (`split`, `slice`, a regular expression's groups) is, in V8, a
 * view that keeps the whole text alive for as long as the substring lives. Ref names and object
 * ids outlive their listing in long-lived memos (evaluated issues keep their id and the refs they
 * consulted), so each listing a kept id came from stayed in memory, tens of megabytes for a
 * big repository's listings. A field decoded with
 * `buffer.toString(encoding, start, end)` holds only its own bytes.
 */
import type { Oid } from './oid.js';

const NEWLINE = 0x0a;
const OID_HEX_LENGTH = 40;

/** 1 for the bytes of lower-case hex digits. */
const LOWER_HEX: Readonly<Uint8Array> = Uint8Array.from({ length: 256 }, (_, code) => ('0123456789abcdef'.includes(String.fromCharCode(code)) ? 1 : 0));

/**
 * Calls `onLine` with the byte range of every line of `buffer` (without its newline; a last
 * line without one included, an empty tail not).
 */
export function forEachLine(buffer: Buffer, onLine: (start: number, end: number) => void): void {
  for (let start = 0; start < buffer.length;) {
    const newline = buffer.indexOf(NEWLINE, start);
    const end = newline < 0 ? buffer.length : newline;
    onLine(start, end);
    start = end + 1;
  }
}

/**
 * The object id of a line `<40 hex><separator><something>` (ref listings, `packed-refs`,
 * signed refs), decoded on its own; null when the line is not of that form. The field after
 * the separator starts at `start + 41` and is not empty.
 */
export function lineOid(buffer: Buffer, start: number, end: number, separator: number): Oid | null {
  if (end - start < OID_HEX_LENGTH + 2 || buffer[start + OID_HEX_LENGTH] !== separator) return null;
  // The bytes checked before decoding: a good part of a signed-refs blob's parse went to
  // testing each decoded id against a regular expression.
  for (let at = start; at < start + OID_HEX_LENGTH; at += 1) if (LOWER_HEX[buffer[at] as number] === 0) return null;
  return buffer.toString('latin1', start, start + OID_HEX_LENGTH) as Oid;
}

/** Where the field after a {@link lineOid} line's separator starts, relative to the line. */
export const AFTER_LINE_OID = OID_HEX_LENGTH + 1;
