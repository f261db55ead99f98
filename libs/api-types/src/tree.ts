/**
 * Wire types of trees (api.md "Tree", operation 13; behaviour.md B §4.4).
 */
import type { Commit } from './commit.js';

/** A tree entry; `kind` `submodule` for gitlinks (mode 160000). */
export interface TreeEntry {
  /** Requested path joined with the entry name. */
  path: string;
  oid: string;
  name: string;
  kind: 'tree' | 'blob' | 'submodule';
}

/** `GET /repos/{rid}/tree/{sha}/{path}`: entries trees and submodules first, then blobs, each by name bytes. */
export interface Tree {
  entries: TreeEntry[];
  /** The requested commit itself. */
  lastCommit: Commit;
  /** Last segment of the requested path (empty for the root or a trailing slash). */
  name: string;
  /** The requested path verbatim (empty for the root). */
  path: string;
}
