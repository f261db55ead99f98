import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseRid, type Rid } from '@forge-httpd/identity';
import { createTestRepository, projectPayload, testKeyPair, writeTestHome } from './node-home-fixture.testing.js';
import type { StoredRepository } from '../repository/stored-repository.js';
import { type NodeHome, openNodeHome } from './open-node-home.js';
import { StorageRuntime } from '../git/storage-runtime.js';

const runtime = new StorageRuntime();

const ALICE = testKeyPair(1);
const T = 1_700_000_000;

describe('Storage: opened repositories', () => {
  let dir: string;
  let nodeHome: NodeHome;
  let rids: Rid[];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'forge-'));
    const home = path.join(dir, 'home');
    await writeTestHome({ home, keyPair: ALICE });
    rids = [];
    for (const name of ['one', 'two', 'three']) {
      const repo = await createTestRepository({ home, doc: { payload: projectPayload('forge', { name }), delegates: [ALICE], threshold: 1 }, time: T });
      rids.push(parseRid(repo.rid));
    }
    nodeHome = await openNodeHome({ runtime, home, flavour: 'forge', maxOpenRepositories: 2 });
  });
  afterAll(async () => {
    await nodeHome.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps the most recently opened repositories up to the bound and forgets the least recent', async () => {
    const [one, two, three] = rids as [Rid, Rid, Rid];
    const storage = nodeHome.storage;
    const first = await storage.openRepository(one);
    const second = await storage.openRepository(two);
    // Opening `one` again makes `two` the least recently opened.
    expect(await storage.openRepository(one)).toBe(first);
    const third = await storage.openRepository(three);
    expect(storage.openRepositories).toBe(2);
    expect(await storage.openRepository(one)).toBe(first);
    expect(await storage.openRepository(three)).toBe(third);
    // `two` was forgotten: it is opened afresh, and still reads.
    const reopened = await storage.openRepository(two);
    expect(reopened).not.toBe(second);
    expect((await reopened?.project())?.name).toBe('two');
    expect(storage.openRepositories).toBe(2);
  });

  it('leaves a forgotten repository readable for a request still holding it', async () => {
    const [one, two, three] = rids as [Rid, Rid, Rid];
    const storage = nodeHome.storage;
    const held = await storage.openRepository(one);
    await storage.openRepository(two);
    await storage.openRepository(three);
    expect(await storage.openRepository(one)).not.toBe(held);
    expect((await held?.project())?.name).toBe('one');
    expect(await held?.git.resolveRef('refs/rad/id')).toMatch(/^[0-9a-f]{40}$/);
  });

  it('reads a repository for background work without pushing out the kept ones', async () => {
    const [one, two, three] = rids as [Rid, Rid, Rid];
    const storage = nodeHome.storage;
    const first = await storage.openRepository(one);
    const second = await storage.openRepository(two);
    // Kept ones are used as they are, and keep their recency: `one` stays the least recent.
    expect(await storage.withRepository(one, async (repository) => repository)).toBe(first);
    // The bound is reached: `three` is read by a repository of its own, closed after.
    let transient: StoredRepository | null = null;
    const name = await storage.withRepository(three, async (repository) => {
      transient = repository;
      return (await repository?.project())?.name;
    });
    expect(name).toBe('three');
    await expect((transient as StoredRepository | null)?.git.resolveRef('refs/rad/id')).rejects.toThrow(/closed/);
    expect(await storage.openRepository(two)).toBe(second);
    expect(await storage.openRepository(one)).toBe(first);
    expect(storage.openRepositories).toBe(2);
    expect(await storage.withRepository(parseRid('rad:z3gqcJUoA1n9HaHKufZs5FCSGazv5'), async (repository) => repository)).toBeNull();
  });
});
