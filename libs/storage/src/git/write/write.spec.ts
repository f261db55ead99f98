import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { git, gitRaw, makeTempDir, removeTempDir } from './git-cli.testing.js';
import { hashObject } from '../objects/hash-object.js';
import { initBareRepository } from './init-bare-repository.js';
import type { Oid } from '../objects/oid.js';
import { repackRepository } from './repack-repository.js';
import { serializeCommit } from '../format/serialize-commit.js';
import { serializeTag } from '../format/serialize-tag.js';
import { serializeTree, type TreeEntryInput } from '../format/serialize-tree.js';
import { updateRefs } from './update-refs.js';
import { writeObject } from './write-object.js';

const alice = { name: 'Alice', email: 'alice@example.com', time: 1_700_000_000, offset: '+0000' };

let tmp: string;
let gitDir: string;

beforeAll(async () => {
  tmp = await makeTempDir();
  gitDir = path.join(tmp, 'repo.git');
  await initBareRepository(gitDir, { userName: 'alice', userEmail: 'alice@z6Mk' });
});
afterAll(() => removeTempDir(tmp));

describe('initBareRepository', () => {
  it('creates a bare repository with HEAD on master and the given identity', async () => {
    expect(git(gitDir, ['rev-parse', '--is-bare-repository'])).toBe('true');
    expect(await readFile(path.join(gitDir, 'HEAD'), 'utf8')).toBe('ref: refs/heads/master\n');
    expect(git(gitDir, ['config', 'user.name'])).toBe('alice');
    expect(git(gitDir, ['config', 'user.email'])).toBe('alice@z6Mk');
    await expect(stat(path.join(gitDir, 'hooks'))).rejects.toThrow();
  });
});

describe('hashObject and writeObject', () => {
  it.each([
    ['an empty blob', Buffer.alloc(0)],
    ['a text blob', Buffer.from('hello\n')],
    ['a binary blob', Buffer.from([0, 1, 2, 255, 254, 10, 0])],
  ])('computes the same id as git hash-object for %s', async (_label, bytes) => {
    const expected = git(gitDir, ['hash-object', '-t', 'blob', '-w', '--stdin'], { input: bytes });
    expect(hashObject('blob', bytes)).toBe(expected);
    expect(await writeObject(gitDir, 'blob', bytes)).toBe(expected);
  });

  it('writes a loose object that git reads back byte for byte', async () => {
    const bytes = Buffer.from('written by forge\n');
    const oid = await writeObject(gitDir, 'blob', bytes);
    expect(gitRaw(gitDir, ['cat-file', 'blob', oid]).equals(bytes)).toBe(true);
    expect(await writeObject(gitDir, 'blob', bytes)).toBe(oid);
    git(gitDir, ['fsck', '--strict', '--no-dangling']);
  });
});

describe('serializeTree', () => {
  it('sorts entries in git tree order and matches git mktree for every mode', async () => {
    const blob = await writeObject(gitDir, 'blob', Buffer.from('x'));
    const sub = await writeObject(gitDir, 'tree', serializeTree([{ name: 'f', mode: '100644', oid: blob }]));
    const entries: TreeEntryInput[] = [
      { name: 'a.b', mode: '100644', oid: blob },
      { name: 'a', mode: '40000', oid: sub },
      { name: 'a-', mode: '100755', oid: blob },
      { name: 'link', mode: '120000', oid: blob },
      { name: 'module', mode: '160000', oid: '1234567890123456789012345678901234567890' as Oid },
      { name: 'é', mode: '100644', oid: blob },
    ];
    const mktreeInput = entries.map((e) => `${e.mode.padStart(6, '0')} ${typeLabel(e.mode)} ${e.oid}\t${e.name}\n`).join('');
    const expected = git(gitDir, ['mktree', '--missing'], { input: mktreeInput });
    const tree = serializeTree(entries);
    expect(hashObject('tree', tree)).toBe(expected);
    expect(gitRaw(gitDir, ['cat-file', 'tree', expected]).equals(tree)).toBe(true);
  });

  it.each(['', 'a/b', '..', 'nul\0'])('rejects the entry name %j', (name) => {
    expect(() => serializeTree([{ name, mode: '100644', oid: '0'.repeat(40) as Oid }])).toThrow();
  });

  it('rejects duplicate names', () => {
    const oid = '0'.repeat(40) as Oid;
    expect(() =>
      serializeTree([
        { name: 'a', mode: '100644', oid },
        { name: 'a', mode: '40000', oid },
      ]),
    ).toThrow();
  });
});

describe('serializeCommit', () => {
  it('matches git commit-tree for a commit with two parents', async () => {
    const tree = await writeObject(gitDir, 'tree', serializeTree([]));
    const env = { GIT_AUTHOR_DATE: '1700000000 +0000', GIT_COMMITTER_DATE: '1700000000 +0000' };
    const p1 = git(gitDir, ['commit-tree', tree, '-m', 'one'], { env }) as Oid;
    const p2 = git(gitDir, ['commit-tree', tree, '-m', 'two'], { env }) as Oid;
    const expected = git(gitDir, ['commit-tree', tree, '-p', p1, '-p', p2, '-m', 'merge'], { env });
    const bytes = serializeCommit({ tree, parents: [p1, p2], author: alice, committer: alice, message: 'merge\n' });
    expect(hashObject('commit', bytes)).toBe(expected);
  });

  it('writes extra headers with continuation lines and the message verbatim', () => {
    const bytes = serializeCommit({
      tree: '4b825dc642cb6eb9a060e54bf8d69288fbee4904' as Oid,
      parents: [],
      author: alice,
      committer: { ...alice, offset: '-0130' },
      headers: [{ name: 'gpgsig', value: '-----BEGIN SSH SIGNATURE-----\nAAAA\n-----END SSH SIGNATURE-----' }],
      message: 'no newline',
    });
    expect(bytes.toString('utf8')).toBe(
      'tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n' +
        'author Alice <alice@example.com> 1700000000 +0000\n' +
        'committer Alice <alice@example.com> 1700000000 -0130\n' +
        'gpgsig -----BEGIN SSH SIGNATURE-----\n AAAA\n -----END SSH SIGNATURE-----\n' +
        '\nno newline',
    );
  });

  it('rejects a name that would break the signature line', () => {
    const tree = '4b825dc642cb6eb9a060e54bf8d69288fbee4904' as Oid;
    const author = { ...alice, name: 'Eve <x>' };
    expect(() => serializeCommit({ tree, parents: [], author, committer: alice, message: '' })).toThrow();
  });
});

describe('serializeTag', () => {
  it('matches git mktag for an annotated tag', async () => {
    const tree = await writeObject(gitDir, 'tree', serializeTree([]));
    const commit = await writeObject(gitDir, 'commit', serializeCommit({ tree, parents: [], author: alice, committer: alice, message: 'c\n' }));
    const bytes = serializeTag({ object: commit, type: 'commit', tag: 'v1.0', tagger: alice, message: 'Release 1.0\n' });
    expect(git(gitDir, ['mktag'], { input: bytes })).toBe(hashObject('tag', bytes));
  });
});

describe('updateRefs and repackRepository', () => {
  it('writes direct and symbolic refs, then packs objects and refs keeping symbolic refs loose', async () => {
    const tree = await writeObject(gitDir, 'tree', serializeTree([]));
    const commit = await writeObject(gitDir, 'commit', serializeCommit({ tree, parents: [], author: alice, committer: alice, message: 'c\n' }));
    await updateRefs(gitDir, [
      { name: 'refs/heads/main', oid: commit },
      { name: 'refs/namespaces/n/refs/rad/id', symbolicTarget: 'refs/heads/main' },
      { name: 'HEAD', symbolicTarget: 'refs/heads/main' },
    ]);
    expect(git(gitDir, ['rev-parse', 'HEAD'])).toBe(commit);
    expect(git(gitDir, ['symbolic-ref', 'refs/namespaces/n/refs/rad/id'])).toBe('refs/heads/main');
    await repackRepository(gitDir);
    expect(await readFile(path.join(gitDir, 'packed-refs'), 'utf8')).toContain(`${commit} refs/heads/main`);
    await expect(stat(path.join(gitDir, 'refs/heads/main'))).rejects.toThrow();
    await stat(path.join(gitDir, 'objects/info/commit-graph'));
    expect(git(gitDir, ['count-objects', '-v'])).toMatch(/in-pack: [1-9]/);
    expect(git(gitDir, ['symbolic-ref', 'refs/namespaces/n/refs/rad/id'])).toBe('refs/heads/main');
  });

  it('rejects an invalid ref name', async () => {
    await expect(updateRefs(gitDir, [{ name: 'refs/heads/a..b', oid: '0'.repeat(40) as Oid }])).rejects.toThrow();
  });

  it('deletes refs', async () => {
    const commit = git(gitDir, ['rev-parse', 'refs/heads/main']) as Oid;
    await updateRefs(gitDir, [{ name: 'refs/heads/tmp', oid: commit }]);
    await updateRefs(gitDir, [{ name: 'refs/heads/tmp', delete: true }]);
    expect(git(gitDir, ['for-each-ref', 'refs/heads/tmp'])).toBe('');
  });
});

function typeLabel(mode: string): string {
  if (mode === '40000') return 'tree';
  return mode === '160000' ? 'commit' : 'blob';
}
