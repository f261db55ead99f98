import { hashObject } from '@forge-httpd/storage/write';
import type { EmbedFile } from './write-change.js';

/** The action form of embedded files: `{name, content: "git:<blob oid>"}` (docs/node-home.md §7). */
export function embedRefs(files: readonly EmbedFile[] | undefined): { name: string; content: string }[] {
  return (files ?? []).map((file) => ({ name: file.name, content: `git:${hashObject('blob', file.content)}` }));
}
