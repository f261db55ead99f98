import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { KeyPair } from '@forge-httpd/identity';
import type { Oid } from '../git/objects/oid.js';
import { updateRefs } from '../git/write/update-refs.js';
import { createTestRepository, projectPayload, testKeyPair, writeTestCommit, writeTestHome } from '../home/node-home-fixture.testing.js';
import { type NodeHome, openNodeHome } from '../home/open-node-home.js';
import { writeSignedRefs } from '../sigrefs/write-signed-refs.js';
import { RemotesReader } from './remotes.js';
import type { StoredRepository } from './stored-repository.js';
import { StorageRuntime } from '../git/storage-runtime.js';

const runtime = new StorageRuntime();

const [ALICE, BOB, CAROL, DAVE] = [1, 2, 3, 4].map(testKeyPair) as [KeyPair, KeyPair, KeyPair, KeyPair];
const T = 1_700_000_000;

describe('remotes', () => {
  let dir: string;
  let nodeHome: NodeHome;
  let repository: StoredRepository;
  let gitDir: string;
  let head: Oid;
  let identity: Oid;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'forge-'));
    const home = path.join(dir, 'home');
    await writeTestHome({ home, keyPair: ALICE });
    const repo = await createTestRepository({
      home,
      doc: { payload: projectPayload('forge', { name: 'peers' }), delegates: [ALICE] },
      time: T,
    });
    ({ gitDir, identityCommit: identity } = repo);
    head = await writeTestCommit({ gitDir, files: { a: '1' }, time: T });
    const bogusRoot = await writeTestCommit({ gitDir, files: { 'embeds/radicle.json': '{}' }, time: T });
    const ns = (keyPair: KeyPair, ref: string) => `refs/namespaces/${keyPair.nid}/${ref}`;
    await updateRefs(gitDir, [
      { name: ns(ALICE, 'refs/heads/main'), oid: head },
      { name: ns(BOB, 'refs/heads/main'), oid: head },
      { name: ns(CAROL, 'refs/heads/dev'), oid: head },
      { name: ns(DAVE, 'refs/rad/root'), oid: bogusRoot },
      { name: ns(ALICE, `refs/cobs/xyz.forge.id/${identity}`), oid: identity },
      // As `rad init` leaves it: refs/rad/id is symbolic to the identity COB ref.
      { name: ns(ALICE, 'refs/rad/id'), symbolicTarget: ns(ALICE, `refs/cobs/xyz.forge.id/${identity}`) },
    ]);
    await writeSignedRefs({ gitDir, keyPair: ALICE, time: T });
    // Bob's namespace signed with Carol's secret key: the signature does not verify.
    await writeSignedRefs({ gitDir, keyPair: { ...BOB, seed: CAROL.seed }, time: T });
    // Carol signs twice, the second time with a Radicle ≥ 1.7 sigrefs-parent line.
    await writeSignedRefs({ gitDir, keyPair: CAROL, time: T });
    await updateRefs(gitDir, [{ name: ns(CAROL, 'refs/tags/v1'), oid: head }]);
    await writeSignedRefs({ gitDir, keyPair: CAROL, time: T + 1, parentLine: true });
    // Dave's refs/rad/root holds a document that is not this repository's.
    await writeSignedRefs({ gitDir, keyPair: DAVE, time: T });
    nodeHome = await openNodeHome({ runtime, home, flavour: 'forge' });
    const opened = await nodeHome.storage.openRepository(repo.rid);
    if (opened === null) throw new Error('repository missing');
    repository = opened;
  });
  afterAll(async () => {
    await nodeHome.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('lists only peers whose signed refs verify, sorted by NID', async () => {
    const remotes = await repository.remotes();
    expect(remotes.map((remote) => remote.nid)).toEqual([ALICE.nid, CAROL.nid].sort());
  });

  it('reports the signed refs of a peer, without the sigrefs-parent pseudo-ref', async () => {
    const carol = await repository.remote(CAROL.nid);
    expect(carol && Object.fromEntries(carol.refs)).toEqual({ 'refs/heads/dev': head, 'refs/tags/v1': head });
    const alice = await repository.remote(ALICE.nid);
    expect(alice && [...alice.refs.keys()]).toEqual([`refs/cobs/xyz.forge.id/${identity}`, 'refs/heads/main', 'refs/rad/id', 'refs/rad/root']);
    expect(alice?.refs.get('refs/rad/id')).toBe(identity);
  });

  it('answers null for a peer with a bad signature or without signed refs', async () => {
    expect(await repository.remote(BOB.nid)).toBeNull();
    expect(await repository.remote(DAVE.nid)).toBeNull();
    expect(await repository.remote(testKeyPair(9).nid)).toBeNull();
  });

  it('reads signed refs once for callers asking at once, and again once re-signed', async () => {
    let commitReads = 0;
    const git = repository.git;
    const counting = {
      listRefs: git.listRefs.bind(git),
      resolveRef: git.resolveRef.bind(git),
      findEntry: git.findEntry.bind(git),
      readBlob: git.readBlob.bind(git),
      readCommit: (oid: Oid) => {
        commitReads += 1;
        return git.readCommit(oid);
      },
    };
    const reader = new RemotesReader(counting, repository.rid);
    const once = await new RemotesReader(counting, repository.rid).get(CAROL.nid);
    const single = commitReads;
    commitReads = 0;
    const answers = await Promise.all(Array.from({ length: 40 }, () => reader.get(CAROL.nid)));
    expect(commitReads).toBe(single);
    expect(new Set(answers.map((answer) => answer?.refs)).size).toBe(1);
    expect(answers[0]?.refs).toEqual(once?.refs);
    await updateRefs(gitDir, [{ name: `refs/namespaces/${CAROL.nid}/refs/heads/later`, oid: head }]);
    await writeSignedRefs({ gitDir, keyPair: CAROL, time: T + 3, parentLine: true });
    const resigned = await Promise.all([reader.get(CAROL.nid), reader.get(CAROL.nid)]);
    expect(resigned.map((answer) => answer?.refs.has('refs/heads/later'))).toEqual([true, true]);
  });

  it('shows a peer that re-signs on the next call', async () => {
    await updateRefs(gitDir, [{ name: `refs/namespaces/${ALICE.nid}/refs/heads/next`, oid: head }]);
    await writeSignedRefs({ gitDir, keyPair: ALICE, time: T + 2 });
    const alice = (await repository.remotes()).find((remote) => remote.nid === ALICE.nid);
    expect(alice?.refs.has('refs/heads/next')).toBe(true);
  });
});
