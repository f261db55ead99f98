import { createHash, createPublicKey, type KeyObject, verify } from 'node:crypto';
import { BoundedCache } from '@forge-httpd/bounded-cache';
import * as ed from '@noble/ed25519';
import type { Nid } from './brands.js';
import { InvalidInputError } from './error-kinds.js';
import { nidFromPublicKey } from './nid.js';

// noble needs a synchronous SHA-512 for its sync API; node:crypto provides one.
ed.hashes.sha512 = (message) => new Uint8Array(createHash('sha512').update(message).digest());

/** An Ed25519 key pair of a node (docs/node-home.md §2.1). */
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
 * @throws InvalidInputError when the seed is not 32 bytes
 */
export function keyPairFromSeed(seed: Uint8Array): KeyPair {
  if (seed.length !== 32) throw new InvalidInputError('Invalid key seed: expected 32 bytes');
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

// DER SubjectPublicKeyInfo prefix of an Ed25519 key (RFC 8410): the raw 32 bytes follow.
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
// Process-wide on purpose (one of the documented exceptions, tools/test/house/module-state.spec.ts):
// a memo of a pure function (public key bytes → node:crypto key) for free functions called by
// every library above; the same answer for every caller, so sharing it couples nothing. Signers
// are few (the peers of a node); the memo is bounded anyway.
const verifyingKeys = new BoundedCache<string, KeyObject>({ maxEntries: 10_000 });

/**
 * Verifies a plain Ed25519 signature. Verification goes through node:crypto (OpenSSL), not
 * noble: several times faster than noble's sync API, and a cold issue listing verifies one
 * signature per change.
 * @param publicKey - 32-byte public key
 * @param message - the signed bytes
 * @param signature - 64-byte signature
 * @returns true when valid; false for invalid or malformed input
 */
export function verifySignature(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (publicKey.length !== 32 || signature.length !== 64) return false;
  try {
    return verify(null, message, verifyingKey(publicKey), signature);
  } catch {
    return false;
  }
}

/**
 * {@link verifySignature} on one of libuv's worker threads (node:crypto's callback form): the
 * event loop goes on meanwhile, and many checks started together use the other cores. A
 * first listing of a big tracker checks one signature per change.
 * @returns true when valid; false for invalid or malformed input (never rejects)
 */
export function verifySignatureOffThread(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): Promise<boolean> {
  if (publicKey.length !== 32 || signature.length !== 64) return Promise.resolve(false);
  return new Promise((resolve) => {
    try {
      verify(null, message, verifyingKey(publicKey), signature, (error, valid) => resolve(error === null && valid));
    } catch {
      resolve(false);
    }
  });
}

function verifyingKey(publicKey: Uint8Array): KeyObject {
  const hex = Buffer.from(publicKey).toString('hex');
  return verifyingKeys.getOrCompute(hex, () => createPublicKey({ key: Buffer.concat([SPKI_PREFIX, publicKey]), format: 'der', type: 'spki' }));
}
