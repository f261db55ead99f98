import { createHash } from 'node:crypto';
import {
  compareUtf8,
  InvalidInputError,
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
    expect(() => parseNid(text)).toThrow(InvalidInputError);
    expect(() => parseNid(text)).toThrow('Invalid nid: expected z6Mk… (multibase ed25519 public key)');
  });

  it.each([
    ['a bare NID', ALICE_NID],
    ['a did:web', 'did:web:example.com'],
    ['a bad key', 'did:key:z6Mk'],
  ])('rejects %s as a DID', (_label, text) => {
    expect(() => parseDid(text)).toThrow(InvalidInputError);
    expect(() => parseDid(text)).toThrow('Invalid did: expected did:key:z6Mk…');
  });

  it.each([() => parseNid('x'), () => parseDid('x'), () => parseRid('x')])('reports the invalid-input kind (%#)', (parse) => {
    expect(parse).toThrow(expect.objectContaining({ code: 'invalid-input' }));
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
    expect(() => parseRid(text)).toThrow(InvalidInputError);
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
    expect(() => ridFromOid('D96F425412C9F8AD5D9A9A05C9831D0728E2338D')).toThrow(InvalidInputError);
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

  it('agrees with a code point by code point comparison on random text, lone surrogates included', () => {
    const units = [0x2f, 0x61, 0x7a, 0xe9, 0x7ff, 0xd7ff, 0xd800, 0xd83d, 0xdbff, 0xdc00, 0xde00, 0xdfff, 0xe000, 0xff5e, 0xffff];
    let seed = 7;
    const random = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const word = (): string => String.fromCharCode(...Array.from({ length: random(6) }, () => units[random(units.length)] as number));
    const byCodePoints = (a: string, b: string): number => {
      const x = [...a].map((c) => c.codePointAt(0) as number);
      const y = [...b].map((c) => c.codePointAt(0) as number);
      for (let i = 0; i < Math.min(x.length, y.length); i += 1) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
      return x.length - y.length;
    };
    const disagreements: string[][] = [];
    for (let n = 0; n < 20000; n += 1) {
      const a = word();
      const b = random(4) === 0 ? a + word() : word();
      if (Math.sign(compareUtf8(a, b)) !== Math.sign(byCodePoints(a, b))) disagreements.push([a, b]);
    }
    expect(disagreements).toEqual([]);
  });

  it('orders valid text exactly as its UTF-8 bytes', () => {
    const words = ['refs/heads/\u{1F600}', 'refs/heads/\uFF5E', 'refs/heads/\uE000x', 'refs/heads/\u{10000}', 'refs/heads/a', 'refs/heads/'];
    expect([...words].sort(compareUtf8)).toEqual([...words].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y))));
  });
});
