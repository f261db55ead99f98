import type { Nid } from './brands.js';
import { InvalidInputError } from './error-kinds.js';
import { decodeMultibase, encodeMultibase } from './multibase.js';

/** Message of a malformed nid. */
const INVALID_NID = 'Invalid nid: expected z6Mk… (multibase ed25519 public key)';

/** Multicodec varint of `ed25519-pub` (0xed), prefixed to the key in a NID (did:key method). */
const ED25519_PUB_PREFIX = Uint8Array.of(0xed, 0x01);

/**
 * Parses a Node ID: `z` + base58btc of `0xED 0x01` ‖ 32 key bytes (docs/node-home.md §2.2).
 * @param text - candidate NID text
 * @returns the same text, branded
 * @throws InvalidInputError when the text is not exactly such an encoding
 */
export function parseNid(text: string): Nid {
  publicKeyFromNid(text);
  return text as Nid;
}

/**
 * Builds the NID of an Ed25519 public key.
 * @param publicKey - 32-byte Ed25519 public key
 * @returns `z6Mk…` (48 characters)
 * @throws InvalidInputError when the key is not 32 bytes
 */
export function nidFromPublicKey(publicKey: Uint8Array): Nid {
  if (publicKey.length !== 32) throw new InvalidInputError('Invalid nid: expected a 32-byte public key');
  const bytes = new Uint8Array(34);
  bytes.set(ED25519_PUB_PREFIX, 0);
  bytes.set(publicKey, 2);
  return encodeMultibase(bytes) as Nid;
}

/**
 * Extracts the 32-byte Ed25519 public key from a NID text.
 * @param nid - NID text (`z6Mk…`)
 * @returns the public key bytes
 * @throws InvalidInputError when the text is not a multibase ed25519 key
 */
export function publicKeyFromNid(nid: string): Uint8Array {
  let bytes: Uint8Array;
  try {
    bytes = decodeMultibase(nid);
  } catch {
    throw new InvalidInputError(INVALID_NID);
  }
  if (bytes.length !== 34 || bytes[0] !== 0xed || bytes[1] !== 0x01) throw new InvalidInputError(INVALID_NID);
  return bytes.slice(2);
}
