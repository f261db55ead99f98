import type { GitObject, TreeEntry } from './git-objects.js';
import type { Oid } from '../objects/oid.js';
import { parseCommit } from './parse-commit.js';
import { splitTreePath } from './tree-path.js';

/** What {@link findEntry} needs from a repository. */
export interface TreeSource {
  readObject(oid: Oid): Promise<GitObject | null>;
  readTree(oid: Oid): Promise<TreeEntry[] | null>;
}

/**
 * Finds the entry at `path` below a commit's tree (or a tree) by reading one tree per path
 * segment; the path is never handed to git. One trailing `/` is allowed; empty, `.` and
 * `..` segments find nothing.
 * @param source - object reader
 * @param lookup - start commit or tree, and the `/`-separated path (`''` = the root tree itself)
 * @returns the entry (the root as `{name: '', mode: '40000', kind: 'tree'}`), or null
 */
export async function findEntry(source: TreeSource, { start, path }: { start: Oid; path: string }): Promise<TreeEntry | null> {
  const root = await rootTree(source, start);
  if (root === null) return null;
  const segments = splitTreePath(path);
  if (segments === null) return null;
  if (segments.length === 0) return { name: '', mode: '40000', kind: 'tree', oid: root };
  let entry: TreeEntry | undefined;
  let tree: Oid = root;
  for (const segment of segments) {
    if (entry !== undefined) {
      if (entry.kind !== 'tree') return null;
      tree = entry.oid;
    }
    const entries = await source.readTree(tree);
    entry = entries?.find((candidate) => candidate.name === segment);
    if (entry === undefined) return null;
  }
  return entry ?? null;
}

async function rootTree(source: TreeSource, oid: Oid): Promise<Oid | null> {
  const object = await source.readObject(oid);
  if (object === null) return null;
  if (object.type === 'tree') return oid;
  return object.type === 'commit' ? parseCommit(oid, object.data).tree : null;
}
