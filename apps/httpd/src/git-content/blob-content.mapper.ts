import { isBinaryContent } from '@forge-httpd/diff';
import { defineUtf8Text, isUtf8Text, Utf8Text } from '../platform/utf8-json.js';

/**
 * How blob bytes travel (docs/radicle-httpd.md §4.5, §6.3): UTF-8 text when the bytes are
 * valid UTF-8, else standard base64; `binary` is git's heuristic, independent of that choice.
 * The text stays bytes until the answer is serialized (platform/utf8-json.ts).
 */
export interface BlobContent {
  readonly binary: boolean;
  readonly content: Utf8Text | string;
}

/**
 * @param bytes - blob content
 * @returns git's binary flag, and the text or base64
 */
export function toBlobContent(bytes: Buffer): BlobContent {
  return { binary: isBinaryContent(bytes), content: isUtf8Text(bytes) ? new Utf8Text(bytes) : bytes.toString('base64') };
}

/**
 * Adds `content` after the keys `target` has.
 * @param target - the wire object being built
 * @param content - text or base64
 * @returns `target` with `content`
 */
export function withContent<T extends object>(target: T, content: BlobContent['content']): T & { content: string } {
  if (typeof content === 'string') return Object.assign(target, { content });
  return defineUtf8Text(target, 'content', content) as T & { content: string };
}
