import type { Blob, Commit } from '@forge-httpd/api-types';
import { toBlobContent, withContent } from '../git-content/blob-content.mapper.js';

/**
 * A file → wire Blob (docs/radicle-httpd.md §4.5), keys `binary, name, content, path, lastCommit`.
 * @param input - requested (or readme candidate) path, the bytes, the last commit touching it
 * @returns the wire blob; `name` is the last path segment
 */
export function toBlob(input: { path: string; bytes: Buffer; lastCommit: Commit }): Blob {
  const name = input.path.slice(input.path.lastIndexOf('/') + 1);
  const { binary, content } = toBlobContent(input.bytes);
  const head = withContent({ binary, name }, content);
  return Object.assign(head, { path: input.path, lastCommit: input.lastCommit });
}
