import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseRid, ridDirectoryName, ridFromOid } from '@forge-httpd/identity';
import { formatProfileConfig } from '../config/format-profile-config.js';
import { createNodeDatabase, createPoliciesDatabase } from '../db/create-databases.js';
import { resolveAlias } from '../db/resolve-alias.js';
import { insertFollowPolicy, insertNode, insertRouting, insertSeedingPolicy } from '../db/row-writers.js';
import { testKeyPair, writeTestHome } from './node-home-fixture.testing.js';
import { type NodeHome, openNodeHome } from './open-node-home.js';
import { StorageRuntime } from '../git/storage-runtime.js';

const runtime = new StorageRuntime();

const ALICE = testKeyPair(1);
const BOB = testKeyPair(2);
const CAROL = testKeyPair(3);
const RID_1 = ridFromOid('1'.repeat(40));
const RID_2 = ridFromOid('2'.repeat(40));
const RID_3 = ridFromOid('3'.repeat(40));

describe('openNodeHome', () => {
  let dir: string;
  let home: string;
  let nodeHome: NodeHome;
  const logged: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'forge-'));
    home = path.join(dir, 'home');
    await writeTestHome({
      home,
      keyPair: ALICE,
      config: { web: { description: 'first', pinned: [RID_2] }, seedingPolicy: { policy: 'allow', scope: 'all' } },
    });
    const nodeDb = createNodeDatabase(path.join(home, 'node', 'node.db'));
    insertNode(nodeDb, { id: ALICE.nid, alias: 'alice', timestamp: 1, agent: '/radicle:1.2.0/' });
    insertNode(nodeDb, { id: BOB.nid, alias: 'bob-announced', timestamp: 1 });
    insertNode(nodeDb, { id: CAROL.nid, alias: 'carol', timestamp: 1 });
    for (const [repo, node] of [
      [RID_2, ALICE],
      [RID_1, ALICE],
      [RID_1, BOB],
    ] as const) {
      insertRouting(nodeDb, { repo, node: node.nid, timestamp: 5 });
    }
    nodeDb.close();
    const policiesDb = createPoliciesDatabase(path.join(home, 'node', 'policies.db'));
    insertSeedingPolicy(policiesDb, { rid: RID_2, policy: { policy: 'block' } });
    insertSeedingPolicy(policiesDb, { rid: RID_1, policy: { policy: 'allow', scope: 'followed' } });
    insertFollowPolicy(policiesDb, { nid: BOB.nid, alias: 'bobby' });
    insertFollowPolicy(policiesDb, { nid: CAROL.nid });
    policiesDb.close();
    nodeHome = await openNodeHome({ runtime, home, flavour: 'forge', log: (message) => logged.push(message) });
  });
  afterAll(async () => {
    await nodeHome.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('reads the NID from keys/radicle.pub and config.json at startup', () => {
    expect(nodeHome.nid).toBe(ALICE.nid);
    expect(nodeHome.profile.alias).toBe('alice');
    expect(nodeHome.defaultSeedingPolicy).toEqual({ policy: 'allow', scope: 'all' });
    expect(nodeHome.currentWebConfig()).toEqual({ pinnedRepositories: [RID_2], description: 'first' });
  });

  it('answers node.db questions', () => {
    expect(nodeHome.nodeDb.agent(ALICE.nid)).toBe('/radicle:1.2.0/');
    expect(nodeHome.nodeDb.agent(testKeyPair(9).nid)).toBeNull();
    expect(nodeHome.nodeDb.seedCount(RID_1)).toBe(2);
    expect(nodeHome.nodeDb.seedCount(RID_3)).toBe(0);
    expect(nodeHome.nodeDb.inventory(ALICE.nid)).toEqual([RID_1, RID_2].sort());
    expect(nodeHome.nodeDb.routingCount(ALICE.nid)).toBe(2);
  });

  it('answers policies.db questions in table order and falls back to the startup default', () => {
    expect(nodeHome.policiesDb.seedingPolicies()).toEqual([
      { rid: RID_2, policy: { policy: 'block' } },
      { rid: RID_1, policy: { policy: 'allow', scope: 'followed' } },
    ]);
    expect(nodeHome.policiesDb.seedingPolicy(RID_3)).toBeNull();
    expect(nodeHome.effectiveSeedingPolicy(RID_3)).toEqual({ policy: 'allow', scope: 'all' });
    expect(nodeHome.effectiveSeedingPolicy(RID_2)).toEqual({ policy: 'block' });
  });

  it('resolves aliases from following first, then from nodes, else null', () => {
    expect(resolveAlias(nodeHome, BOB.nid)).toBe('bobby');
    expect(resolveAlias(nodeHome, CAROL.nid)).toBe('carol');
    expect(resolveAlias(nodeHome, testKeyPair(9).nid)).toBeNull();
  });

  it('reloads only the web section when config.json changes, keeping the startup policy', async () => {
    await writeFile(
      path.join(home, 'config.json'),
      formatProfileConfig({ alias: 'renamed', web: { description: 'second' }, seedingPolicy: { policy: 'block' } }),
    );
    expect(nodeHome.currentWebConfig()).toEqual({ pinnedRepositories: [], description: 'second' });
    expect(nodeHome.defaultSeedingPolicy).toEqual({ policy: 'allow', scope: 'all' });
    await writeFile(path.join(home, 'config.json'), '{"node":{"alias":"x"},"web":{"pinned":{"repositories":["bad"]}}}');
    expect(nodeHome.currentWebConfig().description).toBe('second');
    expect(logged).toHaveLength(1);
  });

  it('lists only directories named by RIDs, sorted by RID bytes', async () => {
    const storage = path.join(home, 'storage');
    for (const rid of [RID_3, RID_1]) await mkdir(path.join(storage, ridDirectoryName(rid)));
    await mkdir(path.join(storage, `${ridDirectoryName(RID_2)}abc.lock`));
    await mkdir(path.join(storage, '.hidden'));
    await mkdir(path.join(storage, 'not-a-rid'));
    await writeFile(path.join(storage, ridDirectoryName(RID_2)), 'a file, not a repository');
    expect(await nodeHome.storage.listRepositoryIds()).toEqual([RID_1, RID_3]);
    expect(await nodeHome.storage.openRepository(RID_2)).toBeNull();
    expect((await nodeHome.storage.openRepository(parseRid(ridDirectoryName(RID_1))))?.rid).toBe(RID_1);
  });
});

describe('openNodeHome failures', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'forge-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('fails with HOME_INVALID when the home or its public key is missing', async () => {
    await expect(openNodeHome({ runtime, home: path.join(dir, 'none'), flavour: 'forge' })).rejects.toMatchObject({
      code: 'invalid-data',
    });
    await mkdir(path.join(dir, 'nokey'));
    await expect(openNodeHome({ runtime, home: path.join(dir, 'nokey'), flavour: 'forge' })).rejects.toMatchObject({
      code: 'invalid-data',
    });
  });

  it.each([
    ['missing', null],
    ['invalid', '{"node":{}}'],
  ])('fails with CONFIG_INVALID when config.json is %s', async (name, text) => {
    const home = path.join(dir, name);
    await writeTestHome({ home, keyPair: ALICE });
    await rm(path.join(home, 'config.json'));
    if (text !== null) await writeFile(path.join(home, 'config.json'), text);
    await expect(openNodeHome({ runtime, home, flavour: 'forge' })).rejects.toMatchObject({ code: 'invalid-data' });
  });

  it('reads missing databases as empty', async () => {
    const home = path.join(dir, 'nodb');
    await writeTestHome({ home, keyPair: ALICE });
    const nodeHome = await openNodeHome({ runtime, home, flavour: 'forge' });
    expect(nodeHome.nodeDb.agent(ALICE.nid)).toBeNull();
    expect(nodeHome.nodeDb.inventory(ALICE.nid)).toEqual([]);
    expect(nodeHome.policiesDb.seedingPolicies()).toEqual([]);
    expect(nodeHome.effectiveSeedingPolicy(RID_1)).toEqual({ policy: 'block' });
    expect(await nodeHome.storage.listRepositoryIds()).toEqual([]);
    await nodeHome.close();
  });
});
