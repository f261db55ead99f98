import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { compareRids, didFromNid, type KeyPair, ridFromOid } from '@forge-httpd/identity';
import { repackRepository } from '../git/write/repack-repository.js';
import { SETTLE_MS } from '../git/objects/stat-stamp.js';
import { updateRefs } from '../git/write/update-refs.js';
import { readIdentityRefFile, readIdentityDocumentFromFiles } from '../identity-doc/identity-from-files.js';
import {
  createTestRepository,
  documentText,
  projectPayload,
  type TestDocument,
  testKeyPair,
  type TestRepository,
  writeTestCommit,
  writeTestHome,
} from './node-home-fixture.testing.js';
import { waitUntil } from '../wait-until.testing.js';
import type { StoredRepository } from '../repository/stored-repository.js';
import { loadRepositorySummary } from './repository-summary.js';
import { Storage } from './storage.js';
import { StorageRuntime } from '../git/storage-runtime.js';

const runtime = new StorageRuntime();
import { StorageIndex } from './storage-index.js';

const [ALICE, BOB] = [1, 2].map(testKeyPair) as [KeyPair, KeyPair];
const T = 1_700_000_000;
/** Sweeps every 50 ms in tests, so changes show within a fraction of a second. */
const FAST = { sweepMs: 50, minGapMs: 1 };

describe('StorageIndex', () => {
  let dir: string;
  let home: string;
  let storage: Storage;
  let counter = 0;
  const indexes: StorageIndex[] = [];

  function project(name: string, extra: Partial<TestDocument> = {}): TestDocument {
    return { payload: projectPayload('forge', { name }), delegates: [ALICE], ...extra };
  }

  function createRepository(doc: TestDocument): Promise<TestRepository> {
    counter += 1;
    return createTestRepository({ home, doc, time: T + counter });
  }

  /** Moves top-level refs/rad/id to a new revision holding `doc`. */
  async function revise(repo: TestRepository, doc: TestDocument): Promise<void> {
    counter += 1;
    const commit = await writeTestCommit({
      gitDir: repo.gitDir,
      files: { 'embeds/radicle.json': documentText(doc) },
      parents: [repo.identityCommit],
      time: T + counter,
    });
    await updateRefs(repo.gitDir, [{ name: 'refs/rad/id', oid: commit }]);
  }

  function newIndex(options: Partial<{ sweepMs: number; minGapMs: number; watch: boolean; now: () => number }> = FAST): StorageIndex {
    const index = new StorageIndex({ storage, flavour: 'forge', ...options });
    indexes.push(index);
    return index;
  }

  const names = (index: StorageIndex): (string | null)[] => index.list().map((summary) => summary.project?.name ?? null);

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'forge-'));
    home = path.join(dir, 'home');
    await writeTestHome({ home, keyPair: ALICE });
    storage = new Storage(path.join(home, 'storage'), 'forge', { runtime });
  });
  afterEach(async () => {
    for (const index of indexes.splice(0)) index.close();
    await storage.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('reads the identity document from loose and packed files exactly as git does', async () => {
    const repo = await createRepository(project('alpha', { delegates: [ALICE, BOB], threshold: 2 }));
    const viaGit = await (await storage.openRepository(repo.rid))?.identityDocument();
    expect(readIdentityRefFile(repo.gitDir)).toBe(repo.identityCommit);
    expect(readIdentityDocumentFromFiles(repo.gitDir, runtime.objects, repo.identityCommit)).toEqual(viaGit);
    await repackRepository(repo.gitDir);
    // refs/rad/id now lives in packed-refs and the objects in a pack.
    expect(readIdentityRefFile(repo.gitDir)).toBe(repo.identityCommit);
    expect(readIdentityDocumentFromFiles(repo.gitDir, runtime.objects, repo.identityCommit)).toEqual(viaGit);
    const load = {
      rid: repo.rid,
      gitDir: repo.gitDir,
      flavour: 'forge' as const,
      withRepository: <T>(use: (repository: StoredRepository | null) => Promise<T>) => storage.withRepository(repo.rid, use),
      objects: runtime.objects,
    };
    expect((await loadRepositorySummary(load))?.document).toEqual(viaGit);
  });

  it('summarises every repository sorted by RID bytes: visibility, project, delegates and load errors', async () => {
    const repos = [
      await createRepository(project('alpha')),
      await createRepository(project('secret', { visibility: { type: 'private' } })),
      await createRepository({ payload: {}, delegates: [BOB] }),
    ];
    const broken = await createRepository(project('broken'));
    const noDocument = await writeTestCommit({ gitDir: broken.gitDir, files: { README: 'no document\n' }, time: T });
    await updateRefs(broken.gitDir, [{ name: 'refs/rad/id', oid: noDocument }]);
    const index = newIndex();
    await Promise.all([index.ready(), index.ready()]);
    const sorted = [...repos.map((repo) => repo.rid), broken.rid].sort(compareRids);
    expect(index.list().map((summary) => summary.rid)).toEqual(sorted);
    expect(index.stats().loads).toBe(4);
    const byRid = (rid: string) => index.list().find((summary) => summary.rid === rid);
    expect(byRid(repos[0]!.rid)).toMatchObject({ searchName: 'alpha', error: null, document: { visibility: { type: 'public' } } });
    expect(byRid(repos[1]!.rid)?.document?.visibility.type).toBe('private');
    expect(byRid(repos[2]!.rid)).toMatchObject({ project: null, searchName: null });
    expect(index.delegatedTo(didFromNid(BOB.nid)).map((summary) => summary.rid)).toEqual([repos[2]!.rid]);
    expect(byRid(broken.rid)).toMatchObject({ document: null, error: 'identity revision has no document' });
  });

  it('indexes packed repositories from their files, without git, and keeps them across a repack', async () => {
    const loose = await createRepository(project('loose'));
    const packed = await createRepository(project('packed'));
    await repackRepository(packed.gitDir);
    const index = newIndex({ sweepMs: 60_000 });
    await index.ready();
    expect(index.get(packed.rid)?.project?.name).toBe('packed');
    const opened: string[] = [];
    storage.observeOpens((rid) => opened.push(rid));
    // A new revision, packed before the index looks: read from the new pack.
    await revise(loose, project('renamed'));
    await repackRepository(loose.gitDir);
    expect((await index.current(loose.rid))?.project?.name).toBe('renamed');
    expect(opened).toEqual([]);
  });

  it('adds a repository created after the build, watched or not', async () => {
    await createRepository(project('first'));
    const watched = newIndex();
    const polling = newIndex({ ...FAST, watch: false });
    await Promise.all([watched.ready(), polling.ready()]);
    expect(polling.stats().watching).toBe(false);
    await createRepository(project('second'));
    for (const index of [watched, polling]) await waitUntil(() => names(index).includes('second'));
  });

  it('reloads a repository whose identity moved, and drops a removed one', async () => {
    const kept = await createRepository(project('kept'));
    const removed = await createRepository(project('removed'));
    const index = newIndex();
    await index.ready();
    await revise(kept, project('kept', { visibility: { type: 'private' } }));
    await rm(removed.gitDir, { recursive: true, force: true });
    await waitUntil(() => index.get(kept.rid)?.document?.visibility.type === 'private');
    await waitUntil(() => index.get(removed.rid) === undefined);
    expect(index.list().map((summary) => summary.rid)).toEqual([kept.rid]);
  });

  it('answers current() from the repository when it changed since the last sweep', async () => {
    const repo = await createRepository(project('before'));
    const index = newIndex({ sweepMs: 60_000 });
    await index.ready();
    await revise(repo, project('after'));
    expect(index.get(repo.rid)?.project?.name).toBe('before');
    expect((await index.current(repo.rid))?.project?.name).toBe('after');
    expect(await index.current(ridFromOid('f'.repeat(40)))).toBeUndefined();
  });

  it('does not reload unchanged repositories on later sweeps', async () => {
    for (const name of ['a', 'b', 'c']) await createRepository(project(name));
    // A clock past the settle window: the stamps of the files just written are trusted at once.
    const index = newIndex({ ...FAST, now: () => Date.now() + SETTLE_MS * 10 });
    await index.ready();
    const loads = index.stats().loads;
    await waitUntil(() => index.stats().sweeps >= 4);
    expect(index.stats().loads).toBe(loads);
  });

  it('reloads a repository at every sweep while its identity refs are younger than the settle window', async () => {
    await createRepository(project('fresh'));
    // A clock standing at the epoch: no stamp is ever old enough to be trusted.
    const index = newIndex({ ...FAST, now: () => 0 });
    await index.ready();
    const loads = index.stats().loads;
    await waitUntil(() => index.stats().sweeps >= 2);
    expect(index.stats().loads).toBeGreaterThan(loads);
  });
});
