import { canonicalJson, didFromNid, keyPairFromSeed } from '@forge-httpd/identity';
import { parseIdentityDocument } from './identity-document.js';
import { parseCanonicalRefsPayload, parseProjectPayload } from './payloads.js';

const ALICE = didFromNid(keyPairFromSeed(new Uint8Array(32).fill(1)).nid);
const BOB = didFromNid(keyPairFromSeed(new Uint8Array(32).fill(2)).nid);

function doc(fields: Record<string, unknown>): Buffer {
  return Buffer.from(JSON.stringify({ payload: {}, delegates: [ALICE], threshold: 1, ...fields }));
}

describe('parseIdentityDocument', () => {
  it('reads the Appendix A document with defaults for visibility and version', () => {
    const text = canonicalJson({
      delegates: ['did:key:z6MknSLrJoTcukLrE435hVNQT4JUhbvWLX4kUzqkEStBU8Vi'],
      payload: {
        'xyz.radicle.project': {
          defaultBranch: 'master',
          description: 'Radicle Heartwood Protocol & Stack',
          name: 'heartwood',
        },
      },
      threshold: 1,
    });
    const parsed = parseIdentityDocument(Buffer.from(text));
    expect(parsed.visibility).toEqual({ type: 'public' });
    expect(parsed.version).toBe(1);
    expect(Object.keys(parsed.payloads['xyz.radicle.project'] as object)).toEqual(['defaultBranch', 'description', 'name']);
  });

  it('sorts and deduplicates a private allow list, ignoring unknown keys', () => {
    const parsed = parseIdentityDocument(doc({ visibility: { type: 'private', allow: [BOB, ALICE, BOB] }, extra: true, version: 2 }));
    expect(parsed.visibility).toEqual({ type: 'private', allow: [ALICE, BOB].sort() });
    expect(parsed.version).toBe(2);
  });

  it.each([
    ['no delegates', { delegates: [] }],
    ['a malformed delegate', { delegates: ['did:key:nope'] }],
    ['a threshold above the delegate count', { threshold: 2 }],
    ['a zero threshold', { threshold: 0 }],
    ['an unknown visibility', { visibility: { type: 'secret' } }],
    ['version 0', { version: 0 }],
    ['a payload that is not an object', { payload: [] }],
  ])('rejects a document with %s', (_case, fields) => {
    expect(() => parseIdentityDocument(doc(fields))).toThrow(expect.objectContaining({ code: 'invalid-data' }));
  });
});

describe('payload views', () => {
  it.each([
    [{ name: 'ok-name_1.2', description: '', defaultBranch: 'main' }, true],
    [{ name: 'has space', description: '', defaultBranch: 'main' }, false],
    [{ name: 'x', description: 'd'.repeat(256), defaultBranch: 'main' }, false],
    [{ name: 'x', description: '', defaultBranch: '' }, false],
    [{ name: 'x', defaultBranch: 'main' }, false],
  ])('validates the project payload %j: %s', (payload, valid) => {
    expect(parseProjectPayload(payload) !== null).toBe(valid);
  });

  it('reads crefs rule patterns and symbolic refs', () => {
    expect(
      parseCanonicalRefsPayload({
        rules: { 'refs/tags/*': { allow: 'delegates', threshold: 1 } },
        symbolic: { HEAD: 'refs/heads/master' },
      }),
    ).toEqual({ patterns: ['refs/tags/*'], symbolic: { HEAD: 'refs/heads/master' } });
    expect(parseCanonicalRefsPayload({ rules: { 'heads/x': {} } })).toBeNull();
  });
});
