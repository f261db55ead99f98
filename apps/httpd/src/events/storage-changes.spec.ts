import type { Rid } from '@forge-httpd/identity';
import type { Oid } from '@forge-httpd/storage';
import { diffPictures, pictureRefs } from './storage-changes.js';

const RID = 'rad:z3gqcJUoA1n9HaHKufZs5FCSGazv5' as Rid;
const TYPES = { issue: 'xyz.forge.issue', patch: 'xyz.forge.patch' };
const oid = (digit: string): Oid => digit.repeat(40) as Oid;
const ISSUE = oid('a');
const ref = (name: string, target: Oid): { name: string; oid: Oid } => ({ name, oid: target });

describe('changes between two pictures of a repository', () => {
  const before = pictureRefs(
    [
      ref('refs/heads/main', oid('1')),
      ref('refs/rad/id', oid('2')),
      ref('refs/tags/v1', oid('3')),
      ref(`refs/namespaces/z6MkA/refs/cobs/xyz.forge.issue/${ISSUE}`, oid('4')),
      ref('refs/namespaces/z6MkA/refs/heads/main', oid('1')),
    ],
    TYPES,
  );

  it('names the top-level refs that moved, appeared or went away', () => {
    const after = pictureRefs([ref('refs/heads/main', oid('5')), ref('refs/rad/id', oid('2')), ref('refs/heads/next', oid('6'))], TYPES);
    const [refs] = diffPictures(RID, before, after);
    expect(refs).toEqual({ type: 'refs', rid: RID, refs: { 'refs/heads/main': oid('5'), 'refs/heads/next': oid('6'), 'refs/tags/v1': null } });
  });

  it('sends one event per issue or patch whose tips changed in any namespace, and none for other refs', () => {
    const patch = oid('b');
    const after = pictureRefs(
      [
        ref('refs/heads/main', oid('1')),
        ref('refs/rad/id', oid('2')),
        ref('refs/tags/v1', oid('3')),
        ref(`refs/namespaces/z6MkA/refs/cobs/xyz.forge.issue/${ISSUE}`, oid('4')),
        ref(`refs/namespaces/z6MkB/refs/cobs/xyz.forge.issue/${ISSUE}`, oid('7')),
        ref(`refs/namespaces/z6MkB/refs/cobs/xyz.forge.patch/${patch}`, oid('8')),
        ref(`refs/namespaces/z6MkB/refs/cobs/xyz.radicle.issue/${oid('c')}`, oid('8')),
        ref('refs/namespaces/z6MkA/refs/heads/main', oid('9')),
      ],
      TYPES,
    );
    expect(diffPictures(RID, before, after)).toEqual([
      { type: 'issue', rid: RID, id: ISSUE },
      { type: 'patch', rid: RID, id: patch },
    ]);
  });

  it('sends nothing when nothing changed', () => {
    expect(diffPictures(RID, before, before)).toEqual([]);
  });
});
