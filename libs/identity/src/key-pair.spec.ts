import { keyPairFromSeed, signBytes, verifySignature, verifySignatureOffThread } from './key-pair.js';

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

describe('verifySignatureOffThread', () => {
  const keyPair = keyPairFromSeed(new Uint8Array(32).fill(9));
  const other = keyPairFromSeed(new Uint8Array(32).fill(7));

  it('answers as verifySignature does, for valid, tampered, foreign and malformed input', async () => {
    const cases = Array.from({ length: 64 }, (_, at) => {
      const message = new Uint8Array(32).fill(at);
      const signature = Uint8Array.from(signBytes(at % 5 === 0 ? other : keyPair, message));
      if (at % 3 === 0) signature[at % 64] = (signature[at % 64] ?? 0) ^ 1;
      return { publicKey: at === 7 ? new Uint8Array(31) : keyPair.publicKey, message, signature: at === 11 ? signature.subarray(1) : signature };
    });
    const offThread = await Promise.all(cases.map((c) => verifySignatureOffThread(c.publicKey, c.message, c.signature)));
    expect(offThread).toEqual(cases.map((c) => verifySignature(c.publicKey, c.message, c.signature)));
    expect(offThread.filter(Boolean).length).toBeGreaterThan(20);
    expect(offThread.filter((valid) => !valid).length).toBeGreaterThan(20);
  });
});
