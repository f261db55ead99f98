import type { Blob, Commit } from '@forge-httpd/api-types';
import { isBinaryContent } from '@forge-httpd/diff';
import { withBlobContent } from '../git-content/blob-content.mapper.js';

/**
 * A file → wire Blob (docs/radicle-httpd.md §4.5), keys `binary, name, content, path, lastCommit`.
 * @param input - requested (or readme candidate) path, the bytes, the last commit touching it
 * @returns the wire blob; `name` is the last path segment
 */
export function toBlob(input: { path: string; bytes: Buffer; lastCommit: Commit }): Blob {
  const name = input.path.slice(input.path.lastIndexOf('/') + 1);
  const head = withBlobContent({ binary: isBinaryContent(input.bytes), name }, input.bytes);
  return Object.assign(head, { path: input.path, lastCommit: input.lastCommit });
}
