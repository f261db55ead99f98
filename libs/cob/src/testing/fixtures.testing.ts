/**
 * In-memory changes and environments for unit tests of the pure evaluation core (not built,
 * not a test suite itself).
 */
import { canonicalJson, didFromNid, type KeyPair, keyPairFromSeed, type Nid, RejectedError } from '@forge-httpd/identity';
import type { Oid } from '@forge-httpd/storage';
import type { Change } from '../change.js';
import type { FoldEnv } from '../model/fold-env.js';
import { type IdentityDoc, parseIdentityDoc } from '../model/identity-doc.js';

/** Deterministic test keys. */
export const alice: KeyPair = keyPairFromSeed(new Uint8Array(32).fill(1));
export const bob: KeyPair = keyPairFromSeed(new Uint8Array(32).fill(2));
export const eve: KeyPair = keyPairFromSeed(new Uint8Array(32).fill(3));

/** A fake oid from a small number (hex-padded), so tests can pick their order. */
export function oid(n: number): Oid {
  return n.toString(16).padStart(40, '0') as Oid;
}

/** Builds a change with sensible defaults. */
export function change(fields: {
  id: Oid;
  parents?: Oid[];
  author?: Nid;
  timestamp?: number;
  actions: unknown[];
  resource?: Oid | null;
  signatureValid?: boolean;
}): Change {
  return {
    id: fields.id,
    tree: fields.id,
    parents: fields.parents ?? [],
    related: [],
    resource: fields.resource === undefined ? RESOURCE : fields.resource,
    author: fields.author ?? alice.nid,
    timestamp: fields.timestamp ?? 1_700_000_000,
    typeName: 'xyz.radicle.issue',
    actions: fields.actions,
    signatureValid: fields.signatureValid ?? true,
  };
}

/** The resource every test change names by default. */
const RESOURCE = 'f'.repeat(40) as Oid;

/** An identity document with the given delegates. */
export function doc(delegates: Nid[], threshold = 1): IdentityDoc {
  const json = {
    delegates: delegates.map(didFromNid),
    payload: { 'xyz.radicle.project': { defaultBranch: 'master', description: '', name: 'demo' } },
    threshold,
  };
  return parseIdentityDoc(Buffer.from(canonicalJson(json)));
}

/** A fold environment: one document for every resource, configurable merge reachability. */
export function env(fields: { doc?: IdentityDoc; onBranch?: (commit: Oid) => boolean; commits?: Oid[] } = {}): FoldEnv {
  const identity = fields.doc ?? doc([alice.nid]);
  return {
    projectPayloadId: 'xyz.radicle.project',
    docAt: (resource) => {
      if (resource === null) throw new RejectedError('missing identity');
      return identity;
    },
    isOnBranch: ({ commit }) => (fields.onBranch ?? (() => true))(commit),
    hasCommit: (commit) => (fields.commits ?? []).includes(commit),
  };
}
