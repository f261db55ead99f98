import type { Commit } from '@forge-httpd/api-types';
import type { Oid, TreeEntry } from '@forge-httpd/storage';
import { toTree } from './tree.mapper.js';

const oid = '0'.repeat(40) as Oid;
const entry = (name: string, kind: TreeEntry['kind']): TreeEntry => ({ name, kind, oid, mode: kind === 'tree' ? '40000' : '100644' });
const commit = {} as Commit;

describe('toTree', () => {
  it('puts trees and submodules first, then blobs, each by name bytes', () => {
    const entries = [
      entry('b', 'blob'),
      entry('Z', 'blob'),
      entry('sub', 'commit'),
      entry('dir', 'tree'),
      entry('Dir', 'tree'),
      entry('é', 'blob'),
      entry('z', 'blob'),
    ];
    const tree = toTree({ path: '', entries, commit });
    expect(tree.entries.map((item) => `${item.kind}:${item.name}`)).toEqual(['tree:Dir', 'tree:dir', 'submodule:sub', 'blob:Z', 'blob:b', 'blob:z', 'blob:é']);
  });

  it.each([
    ['', '', 'f'],
    ['a/b', 'b', 'a/b/f'],
    ['a/b/', '', 'a/b/f'],
  ])('names the tree at %j %j and joins entry paths', (path, name, entryPath) => {
    const tree = toTree({ path, entries: [entry('f', 'blob')], commit });
    expect([tree.path, tree.name, tree.entries[0]?.path]).toEqual([path, name, entryPath]);
  });
});
