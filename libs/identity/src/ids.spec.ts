import { createHash } from 'node:crypto';
import {
  compareUtf8,
  InvalidDidError,
  InvalidNidError,
  InvalidRidError,
  canonicalJson,
  compareRids,
  didFromNid,
  keyPairFromSeed,
  nidFromDid,
  nidFromPublicKey,
  oidHexFromRid,
  parseDid,
  parseNid,
  parseRid,
  publicKeyFromNid,
  ridDirectoryName,
  ridFromOid,
} from '@forge-httpd/identity';

// docs/node-home.md Appendix A: seed 32 × 0xff, alias alice.
const ALICE_NID = 'z6MknSLrJoTcukLrE435hVNQT4JUhbvWLX4kUzqkEStBU8Vi';
const HEARTWOOD_RID = 'rad:z42hL2jL4XNk6K8oHQaSWfMgCL7ji';
const INITIAL_DOC =
  '{"delegates":["did:key:z6MknSLrJoTcukLrE435hVNQT4JUhbvWLX4kUzqkEStBU8Vi"],"payload":{"xyz.radicle.project":{"defaultBranch":"master","description":"Radicle Heartwood Protocol & Stack","name":"heartwood"}},"threshold":1}';

function blobOid(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

describe('node ids', () => {
  it('derives the Appendix A NID and DID from seed ff…ff', () => {
    const keyPair = keyPairFromSeed(new Uint8Array(32).fill(0xff));
    expect(keyPair.nid).toBe(ALICE_NID);
    expect(didFromNid(keyPair.nid)).toBe(`did:key:${ALICE_NID}`);
    expect(nidFromPublicKey(keyPair.publicKey)).toBe(ALICE_NID);
    expect(Buffer.from(publicKeyFromNid(ALICE_NID))).toEqual(Buffer.from(keyPair.publicKey));
  });

  it('round-trips a DID to its NID', () => {
    expect(nidFromDid(`did:key:${ALICE_NID}`)).toBe(ALICE_NID);
    expect(parseDid(`did:key:${ALICE_NID}`)).toBe(`did:key:${ALICE_NID}`);
  });

  it.each([
    ['empty text', ''],
    ['the DID form', `did:key:${ALICE_NID}`],
    ['a non-z multibase', 'f' + ALICE_NID.slice(1)],
    ['a truncated key', ALICE_NID.slice(0, -1)],
    ['a character outside base58', ALICE_NID.slice(0, -1) + '0'],
    ['a RID', HEARTWOOD_RID.slice(4)],
  ])('rejects %s as a NID with a client-safe message', (_label, text) => {
    expect(() => parseNid(text)).toThrow(InvalidNidError);
    expect(() => parseNid(text)).toThrow('Invalid nid: expected z6Mk… (multibase ed25519 public key)');
  });

  it.each([
    ['a bare NID', ALICE_NID],
    ['a did:web', 'did:web:example.com'],
    ['a bad key', 'did:key:z6Mk'],
  ])('rejects %s as a DID', (_label, text) => {
    expect(() => parseDid(text)).toThrow(InvalidDidError);
    expect(() => parseDid(text)).toThrow('Invalid did: expected did:key:z6Mk…');
  });

  it('reports the error code on identity errors', () => {
    expect(new InvalidNidError().code).toBe('INVALID_NID');
    expect(new InvalidDidError().code).toBe('INVALID_DID');
    expect(new InvalidRidError().code).toBe('INVALID_RID');
  });
});

describe('repository ids', () => {
  it('derives the Appendix A RID from the initial document blob', () => {
    const doc = canonicalJson(JSON.parse(INITIAL_DOC));
    expect(doc).toBe(INITIAL_DOC);
    expect(blobOid(doc)).toBe('d96f425412c9f8ad5d9a9a05c9831d0728e2338d');
    expect(ridFromOid(blobOid(doc))).toBe(HEARTWOOD_RID);
    expect(oidHexFromRid(HEARTWOOD_RID)).toBe('d96f425412c9f8ad5d9a9a05c9831d0728e2338d');
  });

  it('accepts the rad: and bare forms and returns the canonical rad: form', () => {
    expect(parseRid(HEARTWOOD_RID)).toBe(HEARTWOOD_RID);
    expect(parseRid('z42hL2jL4XNk6K8oHQaSWfMgCL7ji')).toBe(HEARTWOOD_RID);
    expect(ridDirectoryName(HEARTWOOD_RID)).toBe('z42hL2jL4XNk6K8oHQaSWfMgCL7ji');
  });

  it.each([
    ['empty text', ''],
    ['rad: alone', 'rad:'],
    ['a NID', ALICE_NID],
    ['a hex oid', 'd96f425412c9f8ad5d9a9a05c9831d0728e2338d'],
    ['a rad:// URL', 'rad://z42hL2jL4XNk6K8oHQaSWfMgCL7ji'],
    ['a missing z', 'rad:42hL2jL4XNk6K8oHQaSWfMgCL7ji'],
    ['a truncated id', 'rad:z42hL2jL4XNk6K8oHQaSW'],
    ['an id of 21 bytes', 'rad:z' + 'z'.repeat(29)],
    ['a character outside base58', 'rad:z42hL2jL4XNk6K8oHQaSWfMgCL7jI'],
    ['surrounding spaces', ' rad:z42hL2jL4XNk6K8oHQaSWfMgCL7ji'],
  ])('rejects %s as a RID with a client-safe message', (_label, text) => {
    expect(() => parseRid(text)).toThrow(InvalidRidError);
    expect(() => parseRid(text)).toThrow('Invalid rid: expected rad:z… (base58 of 20 bytes)');
  });

  it('orders RIDs by their raw bytes', () => {
    const low = ridFromOid('00'.repeat(20));
    const high = ridFromOid('ff'.repeat(20));
    expect(compareRids(low, HEARTWOOD_RID)).toBeLessThan(0);
    expect(compareRids(high, HEARTWOOD_RID)).toBeGreaterThan(0);
    expect(compareRids(HEARTWOOD_RID, 'z42hL2jL4XNk6K8oHQaSWfMgCL7ji')).toBe(0);
  });

  it('rejects an oid that is not 40 lower-case hex characters', () => {
    expect(() => ridFromOid('D96F425412C9F8AD5D9A9A05C9831D0728E2338D')).toThrow(InvalidRidError);
  });
});

describe('compareUtf8', () => {
  it('orders like UTF-8 bytes, also above U+FFFF where UTF-16 code units disagree', () => {
    const words = ['b', '\u{1F600}', '\uFF5E', 'a', 'ab', ''];
    const byBytes = [...words].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    expect([...words].sort(compareUtf8)).toEqual(byBytes);
    expect(compareUtf8('\u{1F600}', '\uFF5E')).toBeGreaterThan(0);
    expect('\u{1F600}' < '\uFF5E').toBe(true);
  });
});
