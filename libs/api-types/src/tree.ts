/**
 * Trees (docs/api.md "Tree", operation 13; docs/radicle-httpd.md §4.4).
 */
import * as v from 'valibot';
import { commitSchema } from './commit.js';
import { oidSchema } from './scalars.js';

/** A tree entry; `kind` `submodule` for gitlinks (mode 160000). */
export const treeEntrySchema = v.object({
  /** Requested path joined with the entry name. */
  path: v.string(),
  oid: oidSchema,
  name: v.string(),
  kind: v.picklist(['tree', 'blob', 'submodule']),
});
export type TreeEntry = v.InferOutput<typeof treeEntrySchema>;

/** `GET /repos/{rid}/tree/{sha}/{path}`: trees and submodules first, then blobs, each by name bytes. */
export const treeSchema = v.object({
  entries: v.array(treeEntrySchema),
  /** The requested commit itself. */
  lastCommit: commitSchema,
  /** Last segment of the requested path (empty for the root or a trailing slash). */
  name: v.string(),
  /** The requested path verbatim (empty for the root). */
  path: v.string(),
});
export type Tree = v.InferOutput<typeof treeSchema>;
