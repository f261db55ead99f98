/**
 * Which blobs accompany a diff in the API's `files` map (docs/radicle-httpd.md §5.10), in a stable order.
 */
import type { FileDiff } from './types.js';

/**
 * Lists the ids of the blobs on both sides of a diff: added → new, deleted → old,
 * modified/moved/copied → old and new. Submodule entries (commits) are left out.
 * @param files - parsed file diffs
 * @returns distinct blob ids, ascending
 */
export function listDiffBlobs(files: readonly FileDiff[]): string[] {
  const oids = new Set<string>();
  for (const file of files) {
    for (const side of [file.old, file.new]) {
      if (side !== null && side.mode !== 'commit' && side.mode !== 'tree') oids.add(side.oid);
    }
  }
  return [...oids].sort();
}
