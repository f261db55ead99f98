import { canonicalJson, didFromNid, encodeMultibase, type KeyPair, RejectedError, signBytes } from '@forge-httpd/identity';
import { type Oid } from '@forge-httpd/storage';
import { hashObject } from '@forge-httpd/storage/write';
import { evaluateChanges } from '../dag/evaluate-changes.js';
import { type IdentityDoc, parseIdentityDoc } from '../model/identity-doc.js';
import { alice, bob, change, eve, oid } from '../testing/fixtures.testing.js';
import { identityFolder } from './fold-identity.js';
import { viewIdentity } from './identity-view.js';

function document(delegates: KeyPair[], threshold = 1): { bytes: Buffer; blob: Oid; doc: IdentityDoc } {
  const bytes = Buffer.from(
    canonicalJson({
      delegates: delegates.map((k) => didFromNid(k.nid)),
      payload: { 'xyz.radicle.project': { defaultBranch: 'main', description: '', name: 'p' } },
      threshold,
    }),
  );
  return { bytes, blob: hashObject('blob', bytes), doc: parseIdentityDoc(bytes) };
}

function signature(keyPair: KeyPair, blob: Oid): string {
  return encodeMultibase(signBytes(keyPair, Buffer.from(blob, 'hex')));
}

const ROOT = oid(0x100);
const initial = document([alice]);
const withBob = document([alice, bob]);
const withEve = document([alice, bob, eve]);
const aliceAndEve = document([alice, eve]);
const docs = new Map([initial, withBob, withEve, aliceAndEve].map((d) => [d.blob, d.doc]));
const env = {
  ridOid: initial.blob,
  docAt: (commit: Oid) => {
    if (commit !== ROOT) throw new RejectedError('no document');
    return { doc: initial.doc, blob: initial.blob };
  },
  docBlob: (blob: Oid) => {
    const doc = docs.get(blob);
    if (doc === undefined) throw new RejectedError('no blob');
    return doc;
  },
};
const root = change({
  id: ROOT,
  author: alice.nid,
  resource: null,
  actions: [{ type: 'revision', title: 'Initial revision', blob: initial.blob, parent: null, signature: signature(alice, initial.blob) }],
});

function evaluate(changes: ReturnType<typeof change>[]) {
  const result = evaluateChanges({ rootId: ROOT, changes: [root, ...changes], folder: identityFolder(env) });
  return result === null ? null : { ...result, identity: viewIdentity(result.state) };
}

function propose(id: number, by: KeyPair, doc: { blob: Oid }, parent: Oid, parents = [parent]) {
  return change({
    id: oid(id),
    parents,
    author: by.nid,
    resource: null,
    actions: [{ type: 'revision', title: `rev ${id}`, blob: doc.blob, parent, signature: signature(by, doc.blob) }],
  });
}

describe('identity fold', () => {
  it('tolerates a stale vote when a concurrent change exists', () => {
    const addBob = propose(0x500, alice, withBob, ROOT);
    const late = change({ id: oid(0x501), parents: [ROOT], author: eve.nid, resource: null, actions: [{ type: 'revision.reject', revision: addBob.id }] });
    expect(evaluate([addBob, late])?.applied).toContain(late.id);
  });

  it('accepts the root revision signed by the founder', () => {
    expect(evaluate([])?.identity).toMatchObject({ id: ROOT, current: ROOT, currentDocument: { threshold: 1 } });
  });

  it('rejects a root whose document is not the repository id or whose signer is not the founder', () => {
    const forged = change({ id: ROOT, author: bob.nid, resource: null, actions: root.actions as unknown[] });
    expect(evaluateChanges({ rootId: ROOT, changes: [forged], folder: identityFolder(env) })).toBeNull();
    expect(evaluateChanges({ rootId: ROOT, changes: [root], folder: identityFolder({ ...env, ridOid: withBob.blob }) })).toBeNull();
  });

  it('adopts a revision by the only delegate at once, then needs a majority of the new delegates', () => {
    const addBob = propose(0x200, alice, withBob, ROOT);
    expect(evaluate([addBob])?.identity.current).toBe(addBob.id);
    const addEve = propose(0x201, alice, withEve, addBob.id);
    const pending = evaluate([addBob, addEve])?.identity;
    expect(pending?.current).toBe(addBob.id);
    expect(pending?.revisions.find((r) => r.id === addEve.id)?.state).toBe('active');
    const accept = change({
      id: oid(0x202),
      parents: [addEve.id],
      author: bob.nid,
      resource: null,
      actions: [{ type: 'revision.accept', revision: addEve.id, signature: signature(bob, withEve.blob) }],
    });
    const adopted = evaluate([addBob, addEve, accept])?.identity;
    expect(adopted?.current).toBe(addEve.id);
    expect(adopted?.currentDocument.delegates).toHaveLength(3);
  });

  it('marks a revision rejected once acceptance is impossible', () => {
    const addBob = propose(0x300, alice, withBob, ROOT);
    const swap = propose(0x301, alice, aliceAndEve, addBob.id);
    const reject = change({ id: oid(0x302), parents: [swap.id], author: bob.nid, resource: null, actions: [{ type: 'revision.reject', revision: swap.id }] });
    expect(evaluate([addBob, swap])?.identity.revisions.find((r) => r.id === swap.id)?.state).toBe('active');
    expect(evaluate([addBob, swap, reject])?.identity.revisions.find((r) => r.id === swap.id)?.state).toBe('rejected');
  });

  it.each([
    ['a non-delegate', () => propose(0x400, eve, withBob, ROOT)],
    ['a revision that changes nothing', () => propose(0x401, alice, initial, ROOT)],
    [
      'a bad document signature',
      () =>
        change({
          id: oid(0x402),
          parents: [ROOT],
          author: alice.nid,
          resource: null,
          actions: [{ type: 'revision', title: 't', blob: withBob.blob, parent: ROOT, signature: signature(eve, withBob.blob) }],
        }),
    ],
  ])('prunes %s when nothing is concurrent', (_name, make) => {
    const bad = make();
    expect(evaluate([bad])?.applied).toEqual([ROOT]);
  });
});
