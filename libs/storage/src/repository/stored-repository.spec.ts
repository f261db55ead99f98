import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { didFromNid, type KeyPair, parseRid } from '@forge-httpd/identity';
import type { Oid } from '../git/objects/oid.js';
import { updateRefs } from '../git/write/update-refs.js';
import { createTestRepository, projectPayload, testKeyPair, writeTestCommit, writeTestHome } from '../home/node-home-fixture.testing.js';
import { type NodeHome, openNodeHome } from '../home/open-node-home.js';
import type { StoredRepository } from './stored-repository.js';
import { StorageRuntime } from '../git/storage-runtime.js';

const runtime = new StorageRuntime();

const [ALICE, BOB, CAROL] = [1, 2, 3].map(testKeyPair) as [KeyPair, KeyPair, KeyPair];
const T = 1_700_000_000;

describe('StoredRepository', () => {
  let dir: string;
  let home: string;
  let nodeHome: NodeHome;

  async function open(rid: string): Promise<StoredRepository> {
    const repository = await nodeHome.storage.openRepository(parseRid(rid));
    if (repository === null) throw new Error('repository missing');
    return repository;
  }

  /** Moves `refs/rad/id` to a new revision whose project is named `name`; its commit. */
  async function moveIdentity(gitDir: string, name: string): Promise<Oid> {
    const text = JSON.stringify({ delegates: [didFromNid(ALICE.nid)], payload: projectPayload('forge', { name }), threshold: 1 });
    const next = await writeTestCommit({ gitDir, files: { 'embeds/radicle.json': text }, time: T + 9 });
    await updateRefs(gitDir, [{ name: 'refs/rad/id', oid: next }]);
    return next;
  }

  async function writeHistory(gitDir: string): Promise<Oid[]> {
    const c1 = await writeTestCommit({ gitDir, files: { README: 'one\n' }, time: T });
    const c2 = await writeTestCommit({ gitDir, files: { README: 'two\n' }, parents: [c1], time: T + 1 });
    const c3 = await writeTestCommit({ gitDir, files: { README: 'three\n' }, parents: [c2], time: T + 2 });
    const fork = await writeTestCommit({ gitDir, files: { README: 'fork\n' }, parents: [c1], time: T + 3 });
    return [c1, c2, c3, fork];
  }

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'forge-'));
    home = path.join(dir, 'home');
    await writeTestHome({ home, keyPair: ALICE });
    nodeHome = await openNodeHome({ runtime, home, flavour: 'forge' });
  });
  afterAll(async () => {
    await nodeHome.close();
    await rm(dir, { recursive: true, force: true });
  });

  describe('identity document', () => {
    it('reads a public document with payloads in stored order and deduplicated delegates', async () => {
      const payload = { ...projectPayload('forge', { name: 'demo' }), 'xyz.radicle.project': { name: 'x' } };
      const repo = await createTestRepository({
        home,
        doc: { payload, delegates: [BOB, ALICE, BOB], threshold: 2 },
        time: T,
      });
      const repository = await open(repo.rid);
      const doc = await repository.identityDocument();
      expect(Object.keys(doc.payloads)).toEqual(['xyz.forge.project', 'xyz.radicle.project']);
      expect(doc.delegates).toEqual([didFromNid(BOB.nid), didFromNid(ALICE.nid)]);
      expect(doc.threshold).toBe(2);
      expect(doc.visibility).toEqual({ type: 'public' });
      expect(await repository.isPublic()).toBe(true);
      expect(await repository.isDelegate(ALICE.nid)).toBe(true);
      expect(await repository.isDelegate(CAROL.nid)).toBe(false);
      expect(await repository.project()).toEqual({ name: 'demo', description: '', defaultBranch: 'main' });
    });

    it('reads a private document with its allow list', async () => {
      const repo = await createTestRepository({
        home,
        doc: {
          payload: projectPayload('forge', { name: 'secret' }),
          delegates: [ALICE],
          visibility: { type: 'private', allow: [didFromNid(BOB.nid)] },
        },
        time: T,
      });
      const repository = await open(repo.rid);
      expect((await repository.identityDocument()).visibility).toEqual({
        type: 'private',
        allow: [didFromNid(BOB.nid)],
      });
      expect(await repository.isPublic()).toBe(false);
    });

    it('uses an adopted document while refs/rad/id names its commit, and reads again once it moved', async () => {
      const repo = await createTestRepository({
        home,
        doc: { payload: projectPayload('forge', { name: 'adopted' }), delegates: [ALICE] },
        time: T,
      });
      const reader = await open(repo.rid);
      const head = await reader.identityHead();
      const read = await reader.identityDocument();
      // A reader of another node home object, given a document for the current commit that
      // differs from the stored one: only an adopted document can answer this way.
      const other = await openNodeHome({ runtime, home, flavour: 'forge' });
      const repository = await other.storage.openRepository(parseRid(repo.rid));
      if (repository === null) throw new Error('repository missing');
      const marked = { ...read, visibility: { type: 'private' as const, allow: [] } };
      repository.adoptIdentityDocument(head, marked);
      expect(await repository.identityDocument()).toBe(marked);
      expect(await repository.isPublic()).toBe(false);
      // Adopting never replaces a document already held.
      repository.adoptIdentityDocument(head, read);
      expect(await repository.identityDocument()).toBe(marked);
      await moveIdentity(repo.gitDir, 'next');
      expect(await repository.isPublic()).toBe(true);
      expect((await repository.project())?.name).toBe('next');
      await other.close();
    });

    it('shows a moved refs/rad/id on the next call', async () => {
      const repo = await createTestRepository({
        home,
        doc: { payload: projectPayload('forge', { name: 'moving' }), delegates: [ALICE] },
        time: T,
      });
      const repository = await open(repo.rid);
      expect((await repository.project())?.name).toBe('moving');
      const next = await moveIdentity(repo.gitDir, 'moved');
      expect((await repository.project())?.name).toBe('moved');
      expect(await repository.identityHead()).toBe(next);
    });

    it('hides the project of the other flavour', async () => {
      const repo = await createTestRepository({
        home,
        doc: { payload: projectPayload('radicle', { name: 'theirs' }), delegates: [ALICE] },
        time: T,
      });
      expect(await (await open(repo.rid)).project()).toBeNull();
    });

    it('fails with IDENTITY_DOC_INVALID when refs/rad/id is missing', async () => {
      const repo = await createTestRepository({
        home,
        doc: { payload: projectPayload('forge', { name: 'broken' }), delegates: [CAROL] },
        time: T,
      });
      await updateRefs(repo.gitDir, [{ name: 'refs/rad/id', delete: true }]);
      await expect((await open(repo.rid)).identityDocument()).rejects.toMatchObject({
        code: 'invalid-data',
      });
    });
  });

  describe('head', () => {
    it('follows HEAD to the top-level default branch', async () => {
      const repo = await createTestRepository({
        home,
        doc: { payload: projectPayload('forge', { name: 'headed' }), delegates: [ALICE] },
        time: T,
      });
      const commits = await writeHistory(repo.gitDir);
      await updateRefs(repo.gitDir, [
        { name: 'refs/heads/main', oid: commits[1] as Oid },
        { name: 'HEAD', symbolicTarget: 'refs/heads/main' },
      ]);
      expect(await (await open(repo.rid)).head()).toEqual({ name: 'refs/heads/main', oid: commits[1] });
    });

    it('falls back to the delegate quorum and sees moved delegate branches', async () => {
      const repo = await createTestRepository({
        home,
        doc: { payload: projectPayload('forge', { name: 'quorum' }), delegates: [ALICE, BOB, CAROL], threshold: 2 },
        time: T,
      });
      const [c1, c2, c3] = await writeHistory(repo.gitDir);
      const branch = (nid: string) => `refs/namespaces/${nid}/refs/heads/main`;
      await updateRefs(repo.gitDir, [
        { name: branch(ALICE.nid), oid: c3 as Oid },
        { name: branch(BOB.nid), oid: c2 as Oid },
        { name: branch(CAROL.nid), oid: c1 as Oid },
      ]);
      const repository = await open(repo.rid);
      // HEAD still names refs/heads/master, which does not exist.
      expect(await repository.head()).toEqual({ name: 'refs/heads/main', oid: c2 });
      await updateRefs(repo.gitDir, [{ name: branch(BOB.nid), oid: c3 as Oid }]);
      expect((await repository.head()).oid).toBe(c3);
    });

    it('fails with REPO_HEAD_UNRESOLVED when delegate branches diverge', async () => {
      const repo = await createTestRepository({
        home,
        doc: { payload: projectPayload('forge', { name: 'split' }), delegates: [ALICE, BOB], threshold: 1 },
        time: T,
      });
      const [, , c3, fork] = await writeHistory(repo.gitDir);
      await updateRefs(repo.gitDir, [
        { name: `refs/namespaces/${ALICE.nid}/refs/heads/main`, oid: c3 as Oid },
        { name: `refs/namespaces/${BOB.nid}/refs/heads/main`, oid: fork as Oid },
      ]);
      await expect((await open(repo.rid)).head()).rejects.toMatchObject({ code: 'invalid-data' });
    });
  });
});
