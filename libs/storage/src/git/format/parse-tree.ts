import { InvalidDataError } from '@forge-httpd/identity';
import type { TreeEntry, TreeEntryKind } from './git-objects.js';
import type { Oid } from '../objects/oid.js';

/**
 * Parses a tree object (git's tree format): repeated `"<octal mode> <name>\0<20-byte id>"`.
 * Names are decoded as UTF-8; entries keep the stored order.
 * @param data - the tree content
 * @returns the entries
 * @throws InvalidDataError on truncated or malformed entries
 */
export function parseTree(data: Buffer): TreeEntry[] {
  const entries: TreeEntry[] = [];
  let offset = 0;
  while (offset < data.length) {
    const space = data.indexOf(0x20, offset);
    const nul = space < 0 ? -1 : data.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 21 > data.length) {
      throw new InvalidDataError('object', 'truncated tree entry');
    }
    const mode = data.toString('latin1', offset, space);
    if (!/^[0-7]{5,6}$/.test(mode)) throw new InvalidDataError('object', 'malformed tree entry mode');
    entries.push({
      name: data.toString('utf8', space + 1, nul),
      mode,
      kind: kindOfMode(mode),
      oid: data.toString('hex', nul + 1, nul + 21) as Oid,
    });
    offset = nul + 21;
  }
  return entries;
}

/**
 * Classifies a tree entry mode: `40000` is a tree, `160000` a submodule commit, anything
 * else (regular, executable, symlink) a blob.
 * @param mode - the octal mode text
 * @returns the kind of object the entry points to
 */
function kindOfMode(mode: string): TreeEntryKind {
  if (mode === '40000' || mode === '040000') return 'tree';
  if (mode === '160000') return 'commit';
  return 'blob';
}
