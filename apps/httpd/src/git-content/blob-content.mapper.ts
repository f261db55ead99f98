import { defineUtf8Text, isUtf8Text } from '../platform/utf8-json.js';

/**
 * How blob bytes travel (docs/radicle-httpd.md §4.5, §6.3): UTF-8 text when the bytes are
 * valid UTF-8, else standard base64; `binary` (git's heuristic, `isBinaryContent`) is
 * independent of that choice. The text is a field serialized from the bytes themselves
 * (platform/utf8-json.ts).
 * @param target - the wire object being built (`content` goes after its keys)
 * @param bytes - blob content
 * @returns `target` with `content`
 */
export function withBlobContent<T extends object>(target: T, bytes: Buffer): T & { content: string } {
  if (isUtf8Text(bytes)) return defineUtf8Text(target, 'content', bytes) as T & { content: string };
  return Object.assign(target, { content: bytes.toString('base64') });
}
