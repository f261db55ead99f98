import type { Oid } from '../objects/oid.js';

/** File modes git writes in trees (`40000` without a leading zero). */
export type TreeEntryMode = '100644' | '100755' | '120000' | '40000' | '160000';

/** One entry to serialize into a tree object. */
export interface TreeEntryInput {
  readonly name: string;
  readonly mode: TreeEntryMode;
  readonly oid: Oid;
}

const MODES: ReadonlySet<string> = new Set(['100644', '100755', '120000', '40000', '160000']);

/**
 * Serializes a tree object: entries `"<mode> <name>\0<20-byte id>"` in git's tree order,
 * i.e. names compared bytewise with tree names compared as if suffixed by `/`
 * (docs/node-home.md §6.1). Input order does not matter.
 * @param entries - the entries; names must be unique, non-empty, without `/` or NUL
 * @returns the tree content (without object header)
 * @throws Error on an invalid name, mode or id, or a duplicate name
 */
export function serializeTree(entries: readonly TreeEntryInput[]): Buffer {
  const keyed = entries.map((entry) => {
    validateEntry(entry);
    const name = Buffer.from(entry.name, 'utf8');
    const sortKey = entry.mode === '40000' ? Buffer.concat([name, Buffer.from('/')]) : name;
    return { entry, name, sortKey };
  });
  if (new Set(entries.map((entry) => entry.name)).size !== entries.length) {
    throw new Error('duplicate tree entry name');
  }
  keyed.sort((a, b) => Buffer.compare(a.sortKey, b.sortKey));
  const parts: Buffer[] = [];
  keyed.forEach(({ entry, name }) => {
    parts.push(Buffer.from(`${entry.mode} `, 'latin1'), name, Buffer.from([0]), Buffer.from(entry.oid, 'hex'));
  });
  return Buffer.concat(parts);
}

function validateEntry(entry: TreeEntryInput): void {
  if (entry.name === '' || /[/\0]/.test(entry.name) || entry.name === '.' || entry.name === '..') {
    throw new Error(`invalid tree entry name: ${JSON.stringify(entry.name)}`);
  }
  if (!MODES.has(entry.mode)) throw new Error(`invalid tree entry mode: ${entry.mode}`);
  if (!/^[0-9a-f]{40}$/.test(entry.oid)) throw new Error(`invalid tree entry oid: ${entry.oid}`);
}
