import { keyPairFromSeed, signBytes, verifySignature } from '@forge-httpd/identity';
import { verifyEd25519 } from './verify-ed25519.js';

describe('verifyEd25519', () => {
  const keyPair = keyPairFromSeed(new Uint8Array(32).fill(9));
  const message = new Uint8Array(20).fill(4);
  const signature = signBytes(keyPair, message);

  it('agrees with the identity library on valid and tampered signatures', () => {
    const tampered = Uint8Array.from(signature);
    tampered[5] = (tampered[5] ?? 0) ^ 1;
    for (const sig of [signature, tampered]) {
      expect(verifyEd25519({ publicKey: keyPair.publicKey, message, signature: sig })).toBe(verifySignature(keyPair.publicKey, message, sig));
    }
    expect(verifyEd25519({ publicKey: keyPair.publicKey, message, signature: tampered })).toBe(false);
  });

  it('rejects malformed keys and signatures instead of throwing', () => {
    expect(verifyEd25519({ publicKey: new Uint8Array(31), message, signature })).toBe(false);
    expect(verifyEd25519({ publicKey: keyPair.publicKey, message, signature: signature.subarray(1) })).toBe(false);
    expect(verifyEd25519({ publicKey: new Uint8Array(32), message, signature })).toBe(false);
  });
});
