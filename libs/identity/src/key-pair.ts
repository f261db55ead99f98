import { createHash } from 'node:crypto';
import * as ed from '@noble/ed25519';
import type { Nid } from './brands.js';
import { InvalidSshKeyError } from './errors.js';
import { nidFromPublicKey } from './nid.js';

// noble needs a synchronous SHA-512 for its sync API; node:crypto provides one.
ed.hashes.sha512 = (message) => new Uint8Array(createHash('sha512').update(message).digest());

/** An Ed25519 key pair of a node (storage-format §2.1). */
export interface KeyPair {
  /** 32-byte secret seed (RFC 8032 private key). */
  readonly seed: Uint8Array;
  /** 32-byte public key. */
  readonly publicKey: Uint8Array;
  /** The node id of `publicKey`. */
  readonly nid: Nid;
}

/**
 * Derives the key pair of a 32-byte seed (what `rad auth` does with `RAD_KEYGEN_SEED`).
 * @param seed - 32 bytes
 * @returns the key pair with its NID
 * @throws InvalidSshKeyError when the seed is not 32 bytes
 */
export function keyPairFromSeed(seed: Uint8Array): KeyPair {
  if (seed.length !== 32) throw new InvalidSshKeyError('Invalid key seed: expected 32 bytes');
  const copy = Uint8Array.from(seed);
  const publicKey = ed.getPublicKey(copy);
  return { seed: copy, publicKey, nid: nidFromPublicKey(publicKey) };
}

/**
 * Signs bytes with plain deterministic Ed25519 (no prehash, no SSHSIG wrapping).
 * @param keyPair - the signer
 * @param message - the exact bytes to sign (e.g. the 20 raw bytes of an oid)
 * @returns the 64-byte signature
 */
export function signBytes(keyPair: KeyPair, message: Uint8Array): Uint8Array {
  return ed.sign(message, keyPair.seed);
}

/**
 * Verifies a plain Ed25519 signature.
 * @param publicKey - 32-byte public key
 * @param message - the signed bytes
 * @param signature - 64-byte signature
 * @returns true when valid; false for invalid or malformed input
 */
export function verifySignature(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (publicKey.length !== 32 || signature.length !== 64) return false;
  try {
    return ed.verify(signature, message, publicKey);
  } catch {
    return false;
  }
}
