/**
 * The "is this blob binary?" heuristic of docs/decisions.md (libgit2's `git_blob_is_binary`
 * without its UTF-16 BOM rule).
 */

/** Only this many leading bytes are examined (git's and libgit2's 8000). */
export const BINARY_CHECK_BYTES = 8000;

/**
 * Tells whether content looks binary: a NUL byte in the first 8000 bytes, or more than one
 * non-printable byte per 128 printable ones there. Printable: bytes above 0x1F except DEL,
 * plus BS, ESC and FF; other whitespace (TAB, LF, VT, CR) counts as neither.
 * @param bytes - the content (only its first 8000 bytes are read)
 * @returns true when the content is binary
 */
export function isBinaryContent(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, BINARY_CHECK_BYTES);
  let printable = 0;
  let nonPrintable = 0;
  for (let index = 0; index < end; index++) {
    const byte = bytes[index] ?? 0;
    if ((byte > 0x1f && byte !== 0x7f) || byte === 0x08 || byte === 0x1b || byte === 0x0c) printable++;
    else if (byte === 0) return true;
    else if (byte !== 0x09 && byte !== 0x0a && byte !== 0x0b && byte !== 0x0d) nonPrintable++;
  }
  return printable >> 7 < nonPrintable;
}
