import type { Commit, Tree, TreeEntry as WireTreeEntry } from '@forge-httpd/api-types';
import { compareUtf8 } from '@forge-httpd/identity';
import type { TreeEntry } from '@forge-httpd/storage';

/**
 * Tree entries → wire Tree (docs/radicle-httpd.md §4.4): trees and submodules first, then blobs, each
 * group by name bytes; entry paths join the requested path (without its trailing slash).
 * @param input - requested path verbatim, the tree's entries, the requested commit
 * @returns the wire tree
 */
export function toTree(input: { path: string; entries: readonly TreeEntry[]; commit: Commit }): Tree {
  const base = input.path.endsWith('/') ? input.path.slice(0, -1) : input.path;
  const entries = [...input.entries].sort(compareEntries).map((entry): WireTreeEntry => ({
    path: base === '' ? entry.name : `${base}/${entry.name}`,
    oid: entry.oid,
    name: entry.name,
    kind: entry.kind === 'commit' ? 'submodule' : entry.kind,
  }));
  return { entries, lastCommit: input.commit, name: input.path.slice(input.path.lastIndexOf('/') + 1), path: input.path };
}

function compareEntries(a: TreeEntry, b: TreeEntry): number {
  const group = (entry: TreeEntry): number => (entry.kind === 'blob' ? 1 : 0);
  return group(a) - group(b) || compareUtf8(a.name, b.name);
}
