import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { armorSshSignature, signBytes } from '@forge-httpd/identity';
import { type GitRepository, type Oid, openGitRepository } from '@forge-httpd/storage';
import { initBareRepository, serializeCommit, serializeTree, updateRefs, writeObject } from '@forge-httpd/storage/write';
import { alice, bob } from '../testing/fixtures.testing.js';
import { writeChange } from '../write/write-change.js';
import { readCobRefIndex } from './cob-ref-index.js';
import { loadChange, ManifestCache } from './load-change.js';

const manifests = new ManifestCache();
import { loadObjectChanges } from './load-object-changes.js';
import { StorageRuntime } from '@forge-httpd/storage';

const runtime = new StorageRuntime();

let dir: string;
let git: GitRepository;
const RESOURCE = 'a'.repeat(40) as Oid;
const RELATED = 'b'.repeat(40) as Oid;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'forge-'));
  await initBareRepository(dir);
  git = openGitRepository(dir, { runtime });
});
afterAll(async () => {
  await git.close();
  await rm(dir, { recursive: true, force: true });
});

function write(fields: { actions?: unknown[]; tips?: Oid[]; related?: Oid[]; badSignature?: boolean; typeName?: string }): Promise<Oid> {
  return writeChange({
    gitDir: dir,
    keyPair: alice,
    alias: 'alice',
    time: 1_700_000_000,
    typeName: fields.typeName ?? 'xyz.radicle.issue',
    actions: fields.actions ?? [{ type: 'comment', body: 'hi' }],
    message: 'Create issue',
    tips: fields.tips ?? [],
    related: fields.related,
    resource: RESOURCE,
    badSignature: fields.badSignature,
  });
}

/** A commit with a hand-made tree and headers, to model what a node cannot load. */
async function craft(args: { manifest?: string | null; headers?: { name: string; value: string }[]; message?: string; actionName?: string }): Promise<Oid> {
  const entries = [];
  if (args.manifest !== null)
    entries.push({
      name: 'manifest',
      mode: '100644' as const,
      oid: await writeObject(dir, 'blob', Buffer.from(args.manifest ?? '{"typeName":"xyz.radicle.issue","version":1}')),
    });
  entries.push({ name: args.actionName ?? '0', mode: '100644' as const, oid: await writeObject(dir, 'blob', Buffer.from('{"body":"x","type":"comment"}')) });
  const tree = await writeObject(dir, 'tree', serializeTree(entries));
  const armor = armorSshSignature(bob.publicKey, signBytes(bob, Buffer.from(tree, 'hex')));
  const person = { name: 'bob', email: 'bob@x', time: 1_700_000_001, offset: '+0000' };
  return writeObject(
    dir,
    'commit',
    serializeCommit({
      tree,
      parents: [],
      author: person,
      committer: person,
      headers: args.headers ?? [{ name: 'gpgsig', value: armor }],
      message: args.message ?? `Create issue\n\nRad-Resource: ${RESOURCE}\n`,
    }),
  );
}

describe('loadChange', () => {
  it('reads the signer, time, type, actions, resource and related parents of a change', async () => {
    const root = await write({});
    const id = await write({
      tips: [root],
      related: [RELATED],
      actions: [
        { type: 'edit', title: 't' },
        { type: 'label', labels: [] },
      ],
    });
    const change = await loadChange(git, id, manifests);
    expect(change).toMatchObject({
      id,
      parents: [root],
      related: [RELATED],
      resource: RESOURCE,
      author: alice.nid,
      timestamp: 1_700_000_000,
      typeName: 'xyz.radicle.issue',
      signatureValid: true,
    });
    expect(change?.actions).toEqual([
      { type: 'edit', title: 't' },
      { type: 'label', labels: [] },
    ]);
  });

  it('loads a change whose signature does not verify, marked invalid', async () => {
    expect((await loadChange(git, await write({ badSignature: true }), manifests))?.signatureValid).toBe(false);
  });

  it('accepts the legacy manifest key and ignores PGP signatures', async () => {
    const armor = armorSshSignature(bob.publicKey, signBytes(bob, Buffer.alloc(20)));
    const legacy = await craft({
      manifest: '{"typename":"xyz.radicle.issue"}',
      headers: [
        { name: 'gpgsig', value: '-----BEGIN PGP SIGNATURE-----\n\nx\n-----END PGP SIGNATURE-----' },
        { name: 'gpgsig', value: armor },
      ],
    });
    expect(await loadChange(git, legacy, manifests)).toMatchObject({ typeName: 'xyz.radicle.issue', author: bob.nid, signatureValid: false });
  });

  it.each<[string, Parameters<typeof craft>[0]]>([
    ['no manifest', { manifest: null }],
    ['a manifest that is not JSON', { manifest: 'nope' }],
    ['no signature', { headers: [] }],
    ['two signatures', { headers: 'xx'.split('').map(() => ({ name: 'gpgsig', value: armorSshSignature(bob.publicKey, new Uint8Array(64)) })) }],
    ['two resources', { message: `m\n\nRad-Resource: ${RESOURCE}\nRad-Resource: ${RELATED}\n` }],
    ['a malformed related oid', { message: 'm\n\nRad-Related: 1234\n' }],
    ['no action blob', { actionName: 'x' }],
  ])('cannot load a change with %s', async (_name, args) => {
    expect(await loadChange(git, await craft(args), manifests)).toBeNull();
  });
});

describe('loading an object', () => {
  it('walks every namespace tip and skips changes of another type with their history', async () => {
    const root = await write({});
    const a = await write({ tips: [root], actions: [{ type: 'comment', body: 'a' }] });
    const stranger = await write({ tips: [root], typeName: 'xyz.radicle.patch' });
    const behind = await write({ tips: [stranger] });
    await updateRefs(dir, [
      { name: `refs/namespaces/${alice.nid}/refs/cobs/xyz.radicle.issue/${root}`, oid: a },
      { name: `refs/namespaces/${bob.nid}/refs/cobs/xyz.radicle.issue/${root}`, oid: behind },
    ]);
    const index = await readCobRefIndex(git);
    const tips = index.objects.get('xyz.radicle.issue')?.get(root) ?? [];
    expect(tips).toEqual([a, behind].sort());
    const loaded = await loadObjectChanges({ git, tips, typeName: 'xyz.radicle.issue', cache: new Map(), manifests });
    expect(loaded.map((change) => change.id).sort()).toEqual([root, a, behind].sort());
  });
});
