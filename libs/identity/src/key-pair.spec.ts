import { keyPairFromSeed, signBytes, verifySignature } from './key-pair.js';

describe('verifySignature', () => {
  const keyPair = keyPairFromSeed(new Uint8Array(32).fill(9));
  const message = new Uint8Array(20).fill(4);
  const signature = signBytes(keyPair, message);

  it('accepts the signature signBytes made and rejects a tampered one', () => {
    const tampered = Uint8Array.from(signature);
    tampered[5] = (tampered[5] ?? 0) ^ 1;
    expect(verifySignature(keyPair.publicKey, message, signature)).toBe(true);
    expect(verifySignature(keyPair.publicKey, message, tampered)).toBe(false);
    expect(verifySignature(keyPair.publicKey, new Uint8Array(20).fill(5), signature)).toBe(false);
  });

  it('rejects another signer and malformed keys or signatures instead of throwing', () => {
    const other = keyPairFromSeed(new Uint8Array(32).fill(7));
    expect(verifySignature(other.publicKey, message, signature)).toBe(false);
    expect(verifySignature(new Uint8Array(31), message, signature)).toBe(false);
    expect(verifySignature(keyPair.publicKey, message, signature.subarray(1))).toBe(false);
    expect(verifySignature(new Uint8Array(32), message, signature)).toBe(false);
  });
});
