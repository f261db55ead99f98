import { decodeUtf8OrNull, isBinaryContent } from '@forge-httpd/diff';

/**
 * How blob bytes travel (docs/radicle-httpd.md §4.5, §6.3): UTF-8 text when the bytes are valid UTF-8,
 * else standard base64; `binary` is git's heuristic, independent of that choice.
 * @param bytes - blob content
 * @returns `{binary, content}`
 */
export function toBlobContent(bytes: Buffer): { binary: boolean; content: string } {
  return { binary: isBinaryContent(bytes), content: decodeUtf8OrNull(bytes) ?? bytes.toString('base64') };
}
