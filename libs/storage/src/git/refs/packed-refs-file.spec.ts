import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { git, makeTempDir, removeTempDir } from '../write/git-cli.testing.js';
import { readGitProcessCounts } from '../processes/git-process-counts.js';
import { initBareRepository } from '../write/init-bare-repository.js';
import { PackedRefsFile } from '../objects/loose-files.js';
import { SETTLE_MS } from '../objects/stat-stamp.js';
import type { Oid } from '../objects/oid.js';
import { openGitRepository } from '../open-git-repository.js';
import { updateRefs } from '../write/update-refs.js';
import { writeObject } from '../write/write-object.js';
import { StorageRuntime } from '../storage-runtime.js';

const runtime = new StorageRuntime();

let tmp: string;
let gitDir: string;
let a: Oid;
let b: Oid;

beforeAll(async () => {
  tmp = await makeTempDir();
  gitDir = path.join(tmp, 'refs.git');
  await initBareRepository(gitDir);
  a = await writeObject(gitDir, 'blob', Buffer.from('a\n'));
  b = await writeObject(gitDir, 'blob', Buffer.from('b\n'));
});
afterAll(() => removeTempDir(tmp));

describe('PackedRefsFile', () => {
  it('resolves loose refs first, then packed ones, and sees packed-refs rewritten', async () => {
    const refs = new PackedRefsFile(gitDir);
    // Without packed-refs an absent ref may be a vanishing repository: git decides.
    expect(refs.resolve('refs/tags/x')).toBeUndefined();
    await updateRefs(gitDir, [
      { name: 'refs/tags/x', oid: a },
      { name: 'refs/tags/y', oid: b },
    ]);
    git(gitDir, ['pack-refs', '--all']);
    expect(refs.resolve('refs/tags/x')).toBe(a);
    expect(refs.resolve('refs/tags/y')).toBe(b);
    expect(refs.resolve('refs/tags/z')).toBeNull();
    // A loose ref written later wins over the packed one, as in git.
    await updateRefs(gitDir, [{ name: 'refs/tags/x', oid: b }]);
    expect(refs.resolve('refs/tags/x')).toBe(b);
    git(gitDir, ['pack-refs', '--all']);
    expect(refs.resolve('refs/tags/x')).toBe(b);
    git(gitDir, ['update-ref', '-d', 'refs/tags/y']);
    expect(refs.resolve('refs/tags/y')).toBeNull();
  });

  it('leaves symbolic refs to git', () => {
    expect(new PackedRefsFile(gitDir).resolve('HEAD')).toBeUndefined();
  });

  it('sees every change of a loose ref it remembers, however the file changed', async () => {
    // A clock far ahead: every file counts as settled, so each read is remembered.
    const refs = new PackedRefsFile(gitDir, () => Date.now() + 60_000);
    await updateRefs(gitDir, [{ name: 'refs/tags/moving', oid: a }]);
    expect([refs.resolve('refs/tags/moving'), refs.resolve('refs/tags/moving')]).toEqual([a, a]);
    await updateRefs(gitDir, [{ name: 'refs/tags/moving', oid: b }]);
    expect(refs.resolve('refs/tags/moving')).toBe(b);
    // Rewritten in place, same size: the change time moves.
    await writeFile(path.join(gitDir, 'refs/tags/moving'), `${a}\n`);
    expect(refs.resolve('refs/tags/moving')).toBe(a);
    // Made symbolic: git decides again, every time.
    await writeFile(path.join(gitDir, 'refs/tags/moving'), 'ref: refs/tags/y\n');
    expect(refs.resolve('refs/tags/moving')).toBeUndefined();
    await writeFile(path.join(gitDir, 'refs/tags/moving'), `${b}\n`);
    expect(refs.resolve('refs/tags/moving')).toBe(b);
    // Removed: packed-refs answers (it has no such ref).
    await rm(path.join(gitDir, 'refs/tags/moving'));
    expect(refs.resolve('refs/tags/moving')).toBeNull();
  });

  it('reads a loose ref written within the settle window again on the next request', async () => {
    let now = Date.now();
    const refs = new PackedRefsFile(gitDir, () => now);
    await writeFile(path.join(gitDir, 'refs/tags/fresh'), `${a}\n`);
    expect(refs.resolve('refs/tags/fresh')).toBe(a);
    await writeFile(path.join(gitDir, 'refs/tags/fresh'), `${b}\n`);
    expect(refs.resolve('refs/tags/fresh')).toBe(b);
    now = Date.now() + SETTLE_MS + 1;
    expect([refs.resolve('refs/tags/fresh'), refs.resolve('refs/tags/fresh')]).toEqual([b, b]);
  });
});

describe('bulk reads', () => {
  it('go through cat-file; single reads are made in process until it runs', async () => {
    const repo = openGitRepository(gitDir, { runtime, threadLoad: { isBusy: () => false } });
    try {
      const before = readGitProcessCounts()['cat-file'].spawned;
      expect((await repo.readBlob(a))?.toString()).toBe('a\n');
      expect(readGitProcessCounts()['cat-file'].spawned).toBe(before);
      await repo.startBulkReads();
      await repo.startBulkReads();
      expect(readGitProcessCounts()['cat-file'].spawned).toBe(before + 1);
      expect((await repo.readBlob(a, { bulk: true }))?.toString()).toBe('a\n');
      expect((await repo.readObjectInfo(b, { bulk: true }))?.size).toBe(2);
      expect((await repo.readBlob(b))?.toString()).toBe('b\n');
      expect(readGitProcessCounts()['cat-file'].spawned).toBe(before + 1);
    } finally {
      await repo.close();
    }
  });
});
