import { stat } from 'node:fs/promises';
import path from 'node:path';
import { buildFixture, BIG_SIZE, NAMESPACE, SIGNATURE, type Fixture } from './write/fixture-repo.testing.js';
import { git, makeTempDir, removeTempDir } from './write/git-cli.testing.js';
import type { GitRepository } from './git-repository.js';
import { openGitRepository } from './open-git-repository.js';
import type { Oid } from './objects/oid.js';
import { StorageRuntime } from './storage-runtime.js';

const runtime = new StorageRuntime();

let tmp: string;
const setups: Record<string, { fixture: Fixture; repo: GitRepository }> = {};

beforeAll(async () => {
  tmp = await makeTempDir();
  for (const packed of [false, true]) {
    const fixture = await buildFixture(tmp, packed);
    setups[packed ? 'packed' : 'loose'] = { fixture, repo: openGitRepository(fixture.gitDir, { runtime }) };
  }
});
afterAll(async () => {
  await Promise.all(Object.values(setups).map(({ repo }) => repo.close()));
  await removeTempDir(tmp);
});

const MISSING = '0123456789012345678901234567890123456789' as Oid;

describe.each(['loose', 'packed'])('reading %s objects', (layout) => {
  const get = () => setups[layout] as { fixture: Fixture; repo: GitRepository };

  it('stores objects in the expected layout', async () => {
    const { fixture } = get();
    const loosePath = path.join(fixture.gitDir, 'objects', fixture.commits.c1.slice(0, 2), fixture.commits.c1.slice(2));
    const isLoose = await stat(loosePath).then(
      () => true,
      () => false,
    );
    expect(isLoose).toBe(layout === 'loose');
  });

  it('reads a commit with parents, signatures, extra headers and message', async () => {
    const { fixture, repo } = get();
    const commit = await repo.readCommit(fixture.commits.c3);
    expect(commit).toMatchObject({
      oid: fixture.commits.c3,
      tree: fixture.trees.root1,
      parents: [fixture.commits.c1],
      author: { name: 'Alice', email: 'alice@example.com', time: 3000, offset: '+0000' },
      committer: { name: 'Bob', email: 'bob@example.com', time: 3000, offset: '+0000' },
      message: 'Signed\n\nBody line\n',
      headers: [{ name: 'gpgsig', value: SIGNATURE }],
      isUtf8: true,
    });
    expect((await repo.readCommit(fixture.commits.m))?.parents).toEqual([fixture.commits.c2, fixture.commits.c3]);
  });

  it('keeps raw bytes and flags a message that is not UTF-8', async () => {
    const { fixture, repo } = get();
    const commit = await repo.readCommit(fixture.commits.c2);
    expect(commit?.isUtf8).toBe(false);
    expect(commit?.rawMessage.equals(Buffer.from('caf\xe9 latin-1\n', 'latin1'))).toBe(true);
    expect(commit?.message).toBe('caf\uFFFD latin-1\n');
  });

  it('reads a commit written by git with a non-zero offset and no final newline in the message', async () => {
    const { fixture, repo } = get();
    const commit = await repo.readCommit(fixture.commits.cli);
    expect(commit?.committer).toEqual({ name: 'Alice', email: 'alice@example.com', time: 5000, offset: '+0200' });
    expect(commit?.message).toBe('by git\n');
    expect((await repo.readCommit(fixture.commits.c1))?.message).toBe('Initial commit');
  });

  it('reads a tree with blob, tree, symlink, executable and submodule entries', async () => {
    const { fixture, repo } = get();
    const entries = await repo.readTree(fixture.trees.root1);
    expect(entries).toEqual([
      { name: 'README', mode: '100644', kind: 'blob', oid: fixture.blobs.readme },
      { name: 'big.bin', mode: '100644', kind: 'blob', oid: fixture.blobs.big },
      { name: 'dir', mode: '40000', kind: 'tree', oid: fixture.trees.dir },
      { name: 'link', mode: '120000', kind: 'blob', oid: fixture.blobs.link },
      { name: 'module', mode: '160000', kind: 'commit', oid: fixture.submodule },
      { name: 'run.sh', mode: '100755', kind: 'blob', oid: fixture.blobs.a },
    ]);
  });

  it('reports the size of a large blob without reading it and reads it intact on request', async () => {
    const { fixture, repo } = get();
    expect(await repo.readObjectInfo(fixture.blobs.big)).toEqual({ type: 'blob', size: BIG_SIZE });
    const data = await repo.readBlob(fixture.blobs.big);
    expect(data?.length).toBe(BIG_SIZE);
    expect(data?.[BIG_SIZE - 1]).toBe(((BIG_SIZE - 1) * 7919) % 251);
    expect((await repo.readBlob(fixture.blobs.readme))?.toString()).toBe('hello\n');
  });

  it('reads and peels an annotated tag', async () => {
    const { fixture, repo } = get();
    expect(await repo.readTag(fixture.tag)).toMatchObject({
      object: fixture.commits.c2,
      type: 'commit',
      tag: 'v1',
      message: 'Version 1\n',
      tagger: { name: 'Alice', time: 2500 },
    });
    expect(await repo.peelToCommit(fixture.tag)).toBe(fixture.commits.c2);
    expect(await repo.peelToCommit(fixture.commits.c1)).toBe(fixture.commits.c1);
    expect(await repo.peelToCommit(fixture.trees.root1)).toBeNull();
  });

  it('returns null for missing objects and objects of another type', async () => {
    const { fixture, repo } = get();
    expect(await repo.readObject(MISSING)).toBeNull();
    expect(await repo.readObjectInfo(MISSING)).toBeNull();
    expect(await repo.readCommit(MISSING)).toBeNull();
    expect(await repo.readCommit(fixture.trees.root1)).toBeNull();
    expect(await repo.readTree(fixture.commits.c1)).toBeNull();
    expect(await repo.readBlob(fixture.trees.dir)).toBeNull();
    expect(await repo.readTag(fixture.commits.c1)).toBeNull();
    expect(await repo.peelToCommit(MISSING)).toBeNull();
    expect(await repo.findEntry(MISSING, 'README')).toBeNull();
  });

  it.each([
    ['in process', {}],
    ['through cat-file', { bulk: true }],
  ])('reads many commits at once %s, in order, as readCommit does each', async (_how, options) => {
    const { fixture, repo } = get();
    const oids = [fixture.commits.m, MISSING, fixture.commits.c1, fixture.trees.root1, fixture.commits.c3, fixture.commits.m];
    const one = await Promise.all(oids.map((oid) => repo.readCommit(oid)));
    expect(await repo.readCommits(oids, options)).toEqual(one);
    expect(one.map((commit) => commit?.oid ?? null)).toEqual([fixture.commits.m, null, fixture.commits.c1, null, fixture.commits.c3, fixture.commits.m]);
    expect(await repo.readCommits([])).toEqual([]);
    await expect(repo.readCommits([fixture.commits.c1, 'HEAD' as Oid])).rejects.toMatchObject({ code: 'invalid-input' });
  });

  it.each([
    ['README', 'README', 'blob'],
    ['dir', 'dir', 'tree'],
    ['dir/', 'dir', 'tree'],
    ['dir/a.txt', 'a.txt', 'blob'],
    ['module', 'module', 'commit'],
    ['link', 'link', 'blob'],
  ])('finds the entry at %j', async (entryPath, name, kind) => {
    const { fixture, repo } = get();
    expect(await repo.findEntry(fixture.commits.c1, entryPath)).toMatchObject({ name, kind });
  });

  it('finds the root tree for the empty path from a commit or a tree', async () => {
    const { fixture, repo } = get();
    const root = { name: '', mode: '40000', kind: 'tree', oid: fixture.trees.root1 };
    expect(await repo.findEntry(fixture.commits.c1, '')).toEqual(root);
    expect(await repo.findEntry(fixture.trees.root1, '')).toEqual(root);
  });

  it.each(['nope', 'README/x', 'dir//a.txt', '/dir', 'dir/../README', './README', 'module/x', '..'])('finds nothing at %j', async (entryPath) => {
    const { fixture, repo } = get();
    expect(await repo.findEntry(fixture.commits.c1, entryPath)).toBeNull();
  });

  it('resolves direct, packed, symbolic and tag refs and reads symbolic targets', async () => {
    const { fixture, repo } = get();
    expect(await repo.resolveRef('HEAD')).toBe(fixture.commits.c5);
    expect(await repo.resolveRef('refs/heads/side')).toBe(fixture.commits.c3);
    expect(await repo.resolveRef('refs/tags/v1')).toBe(fixture.tag);
    expect(await repo.resolveRef(`refs/namespaces/${NAMESPACE}/refs/rad/id`)).toBe(fixture.commits.c3);
    expect(await repo.resolveRef('refs/heads/absent')).toBeNull();
    expect(await repo.readSymbolicRef('HEAD')).toBe('refs/heads/master');
    expect(await repo.readSymbolicRef(`refs/namespaces/${NAMESPACE}/refs/rad/id`)).toBe('refs/heads/side');
    expect(await repo.readSymbolicRef('refs/heads/master')).toBeNull();
    expect(await repo.readSymbolicRef('refs/heads/absent')).toBeNull();
  });

  it('lists refs under a prefix sorted by name, resolving symbolic refs', async () => {
    const { fixture, repo } = get();
    expect(await repo.listRefs('refs/heads/')).toEqual([
      { name: 'refs/heads/cli', oid: fixture.commits.cli },
      { name: 'refs/heads/master', oid: fixture.commits.c5 },
      { name: 'refs/heads/side', oid: fixture.commits.c3 },
    ]);
    expect(await repo.listRefs(`refs/namespaces/${NAMESPACE}/`)).toEqual([
      { name: `refs/namespaces/${NAMESPACE}/refs/heads/master`, oid: fixture.commits.c2 },
      { name: `refs/namespaces/${NAMESPACE}/refs/rad/id`, oid: fixture.commits.c3 },
    ]);
    expect(await repo.listRefs('refs/notes/')).toEqual([]);
    expect((await repo.listRefs('refs/')).length).toBe(7);
  });
});

describe('readCommits of a damaged commit', () => {
  it.each([
    ['in process', {}],
    ['through cat-file', { bulk: true }],
  ])('fails the whole read %s with the format error, after the other reads ended', async (_how, options) => {
    const { fixture, repo } = setups.loose as { fixture: Fixture; repo: GitRepository };
    const damaged = git(fixture.gitDir, ['hash-object', '-t', 'commit', '--literally', '-w', '--stdin'], { input: 'tree not-an-id\n\nmessage\n' }) as Oid;
    const oids = [fixture.commits.c1, fixture.commits.c2, damaged, fixture.commits.c3];
    await expect(repo.readCommits(oids, options)).rejects.toMatchObject({ code: 'invalid-data' });
    // The repository goes on reading.
    expect((await repo.readCommits([fixture.commits.c3], options)).map((commit) => commit?.oid)).toEqual([fixture.commits.c3]);
  });
});
