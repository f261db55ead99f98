import { execFileSync } from 'node:child_process';
import { createPublicKey, verify } from 'node:crypto';
import type { CobChangeLog, CobObject } from '@forge-httpd/api-types';
import { commentIssue, type CobWriteContext, createIssue, createPatch, writeOtherCob } from '@forge-httpd/cob/write';
import { didFromNid } from '@forge-httpd/identity';
import type { Oid } from '@forge-httpd/storage';
import { type BuiltHome, buildNodeHome, peerByAlias, repositoryByName } from '@forge-httpd/builder';
import { ABSENT_RID, cobWriter, getBytes, getJson, makeTempDir, removeTempDir, startTestServer, type TestServer } from './support/index.js';

let dir: string;
let built: BuiltHome;
let server: TestServer;
const ids: Record<string, Oid> = {};
const { repo, as, push } = cobWriter(() => built);

const EXTERNAL = 'com.example.ci-status';
const RELEASE = 'xyz.forge.release';
const url = (path: string, rid: string = repo().rid): string => `${server.baseUrl}/api/v1/repos/${rid}${path}`;
const git = (...args: string[]): string => execFileSync('git', [`--git-dir=${repo().gitDir}`, ...args], { encoding: 'latin1' });

async function changeLog(typeName: string, id: Oid): Promise<CobChangeLog> {
  const response = await getJson(url(`/cobs/${typeName}/${id}`));
  expect(response.status).toBe(200);
  return response.body as CobChangeLog;
}

beforeAll(async () => {
  dir = await makeTempDir();
  built = await buildNodeHome({
    home: `${dir}/home`,
    seed: 'b'.repeat(64),
    alias: 'alice',
    peers: [{ alias: 'bob' }, { alias: 'eve', known: false }],
    repos: [
      { name: 'acme', forks: [{ peer: 'bob' }, { peer: 'eve' }] },
      { name: 'hidden', private: true },
    ],
  });
  // An issue with two concurrent comments, a forged comment and a comment written on top of it.
  const crash = (ids['issue'] = await createIssue(as('bob'), { title: 'Crash', description: 'It crashes.' }));
  const question = await commentIssue(as('alice'), { issue: crash, body: 'Which version?' });
  ids['eve'] = await commentIssue(as('eve'), { issue: crash, body: 'Same here', tips: [question] });
  ids['bob'] = await commentIssue(as('bob'), { issue: crash, body: 'Version 1.2', tips: [question] });
  ids['forged'] = await commentIssue(as('bob', { badSignature: true, force: true }), { issue: crash, body: 'forged' });
  ids['after'] = await commentIssue(as('alice', { force: true }), { issue: crash, body: 'after the forged comment', tips: [ids['forged']] });
  const v1 = await push('bob', 'feature', 'feature.txt');
  ids['patch'] = await createPatch(as('bob'), { title: 'Add feature', description: 'First version', base: repo().head, oid: v1.oid });
  // Types this server does not evaluate: an external one with a blob that is not JSON, and releases.
  const status = await writeOtherCob(as('eve'), {
    typeName: EXTERNAL,
    message: 'CI status',
    actions: [{ type: 'status', ok: true }, Uint8Array.from([0xff, 0x00, 0x01])],
  });
  ids['external'] = status.id;
  await writeOtherCob(as('alice'), { typeName: EXTERNAL, id: status.id, message: 'CI again', actions: [{ type: 'status', ok: false }] });
  ids['externalForged'] = (
    await writeOtherCob(as('bob', { badSignature: true }), { typeName: EXTERNAL, id: status.id, message: 'forged', actions: [{ type: 'status', ok: true }] })
  ).change;
  ids['release'] = (await writeOtherCob(as('alice'), { typeName: RELEASE, message: 'Release', actions: [{ type: 'release', tag: 'v1.0', title: 'One' }] })).id;
  ids['release2'] = (await writeOtherCob(as('alice'), { typeName: RELEASE, message: 'Release', actions: [{ type: 'release', tag: 'v2.0', title: 'Two' }] })).id;
  const hidden = repositoryByName(built, 'hidden');
  const inHidden: CobWriteContext = { ...as('alice'), gitDir: hidden.gitDir };
  ids['hidden'] = (await writeOtherCob(inHidden, { typeName: RELEASE, message: 'Secret', actions: [{ type: 'release', tag: 'v0' }] })).id;
  server = await startTestServer({ home: built.home });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await removeTempDir(dir);
});

/** The commits of an object's history as git walks them from its refs, without the identity history. */
function historyOf(id: Oid): Oid[] {
  const tips = git('for-each-ref', '--format=%(objectname)', `refs/namespaces/*/refs/cobs/*/${id}`).split('\n').filter(Boolean);
  return git('rev-list', ...new Set(tips), '--not', 'refs/rad/id')
    .split('\n')
    .filter(Boolean) as Oid[];
}

describe('GET /repos/{rid}/cobs/{typeName}/{id}', () => {
  it('lists every signed change of an issue once, parents first, leaving out the forged one', async () => {
    const log = await changeLog('xyz.forge.issue', ids['issue'] as Oid);
    const listed = log.changes.map((change) => change.id);
    expect(new Set(listed)).toEqual(new Set(historyOf(ids['issue'] as Oid).filter((id) => id !== ids['forged'])));
    expect(listed).toHaveLength(new Set(listed).size);
    expect(listed[0]).toBe(ids['issue']);
    for (const [index, change] of log.changes.entries()) {
      for (const parent of change.parents) if (listed.includes(parent)) expect(listed.indexOf(parent)).toBeLessThan(index);
    }
    // The two concurrent comments: ready at the same time, the lower id first.
    const [first, second] = [ids['eve'], ids['bob']].sort() as [Oid, Oid];
    expect(listed.indexOf(first)).toBeLessThan(listed.indexOf(second));
    // The change written on the forged one is listed, naming it as its parent.
    expect(log.changes.find((change) => change.id === ids['after'])?.parents).toEqual([ids['forged']]);
  });

  it('gives each change as stored: parents, signer, time, manifest, actions and a signature that verifies', async () => {
    const log = await changeLog('xyz.forge.issue', ids['issue'] as Oid);
    const identity = git('rev-parse', 'refs/rad/id').trim();
    for (const change of log.changes) {
      const [parents, time] = git('show', '-s', '--format=%P%n%ct', change.id).split('\n');
      expect(change.parents).toEqual((parents ?? '').split(' ').filter((parent) => parent !== '' && parent !== identity));
      expect(change.timestamp).toBe(Number(time));
      expect(change.manifest).toEqual({ typeName: 'xyz.forge.issue', version: 1 });
      const actions = git('ls-tree', change.id)
        .split('\n')
        .filter((line) => /\t-?\d+$/.test(line));
      expect(change.actions).toEqual(actions.map((line) => JSON.parse(git('cat-file', 'blob', line.split(/\s+/)[2] ?? '')) as unknown));
      expect(change.signature.key).toBe(change.author);
      const signer = ['alice', 'bob', 'eve'].map((alias) => peerByAlias(built.context, alias).keyPair).find((pair) => didFromNid(pair.nid) === change.author);
      expect(signer).toBeDefined();
      const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(signer?.publicKey ?? []).toString('base64url') }, format: 'jwk' });
      const tree = Buffer.from(git('rev-parse', `${change.id}^{tree}`).trim(), 'hex');
      expect(verify(null, tree, key, Buffer.from(change.signature.sig, 'base64'))).toBe(true);
    }
  });

  it('serves types it does not evaluate, with a blob that is not JSON as base64', async () => {
    const log = await changeLog(EXTERNAL, ids['external'] as Oid);
    expect(log.typeName).toBe(EXTERNAL);
    expect(log.changes.map((change) => change.id)).not.toContain(ids['externalForged']);
    expect(log.changes).toHaveLength(2);
    expect(log.changes[0]?.actions).toEqual([{ ok: true, type: 'status' }, '/wAB']);
    expect(log.changes[0]?.author).toBe(didFromNid(peerByAlias(built.context, 'eve').keyPair.nid));
    expect(log.changes[1]?.parents).toEqual([ids['external']]);
    const release = await changeLog(RELEASE, ids['release'] as Oid);
    expect(release.changes.map((change) => change.actions)).toEqual([[{ tag: 'v1.0', title: 'One', type: 'release' }]]);
  });

  it('answers a patch log whose root carries the revision', async () => {
    const log = await changeLog('xyz.forge.patch', ids['patch'] as Oid);
    expect(log.changes[0]?.id).toBe(ids['patch']);
    expect((log.changes[0]?.actions as Array<{ type: string }>).map((action) => action.type)).toContain('revision');
  });
});

describe('GET /repos/{rid}/cobs/{typeName}', () => {
  it('lists the objects of a type by id with their signed changes and latest time', async () => {
    const response = await getJson(url(`/cobs/${EXTERNAL}`));
    expect(response.status).toBe(200);
    const log = await changeLog(EXTERNAL, ids['external'] as Oid);
    expect(response.body).toEqual([{ id: ids['external'], changes: 2, updated: Math.max(...log.changes.map((change) => change.timestamp)) }]);
    const issues = (await getJson(url('/cobs/xyz.forge.issue'))).body as CobObject[];
    expect(issues.find((item) => item.id === ids['issue'])?.changes).toBe((await changeLog('xyz.forge.issue', ids['issue'] as Oid)).changes.length);
  });

  it('pages by id and answers [] for a type nobody wrote', async () => {
    const all = ((await getJson(url(`/cobs/${RELEASE}`))).body as CobObject[]).map((item) => item.id);
    expect(all).toEqual([ids['release'], ids['release2']].sort());
    expect(((await getJson(url(`/cobs/${RELEASE}?perPage=1&page=1`))).body as CobObject[]).map((item) => item.id)).toEqual([all[1]]);
    expect((await getJson(url('/cobs/org.example.nothing'))).body).toEqual([]);
  });
});

describe('bad input and privacy', () => {
  // (`..` alone never reaches the server: URL parsing resolves it.)
  it.each(['nope', '.a.b', 'a..b', '-a.b', 'a.b-', `${'a.'.repeat(128)}b`, 'a.b%2F..', 'a.b%00'])('answers 400 for the type name %s', async (typeName) => {
    expect((await getJson(url(`/cobs/${typeName}`))).status).toBe(400);
    expect((await getJson(url(`/cobs/${typeName}/${ids['issue']}`))).status).toBe(400);
  });

  it('answers 404 for an object that is absent or of another type, 400 for a malformed id', async () => {
    expect((await getJson(url(`/cobs/xyz.forge.issue/${'0'.repeat(40)}`))).status).toBe(404);
    expect((await getJson(url(`/cobs/${RELEASE}/${ids['issue']}`))).status).toBe(404);
    expect((await getJson(url('/cobs/xyz.forge.issue/abc'))).status).toBe(400);
  });

  it('answers a private repository exactly like an absent one', async () => {
    const hidden = repositoryByName(built, 'hidden').rid;
    for (const path of [`/cobs/${RELEASE}`, `/cobs/${RELEASE}/${ids['hidden']}`]) {
      const [secret, absent] = [await getBytes(url(path, hidden)), await getBytes(url(path, ABSENT_RID))];
      expect(secret.status).toBe(404);
      expect(secret.bytes.equals(absent.bytes)).toBe(true);
      const headers = (response: typeof secret) => [...response.headers].filter(([name]) => name !== 'date');
      expect(headers(secret)).toEqual(headers(absent));
    }
  });
});
