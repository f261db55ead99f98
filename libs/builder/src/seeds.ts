import { createHash } from 'node:crypto';

/**
 * Parses a 32-byte key seed given as 64 hex characters (like `RAD_KEYGEN_SEED`).
 * @param hex - 64 hex characters
 * @returns the seed bytes
 * @throws Error when the text is not 64 hex characters
 */
export function seedFromHex(hex: string): Uint8Array {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error('a key seed must be 64 hex characters');
  return new Uint8Array(Buffer.from(hex, 'hex'));
}

/**
 * Derives a fixed seed from a label (SHA-256 of a prefix and the label), for demo and test
 * peers whose keys only need to be stable, not secret.
 * @param label - e.g. the peer's alias
 * @returns 32 bytes
 */
export function seedFromLabel(label: string): Uint8Array {
  return new Uint8Array(createHash('sha256').update(`forge-httpd builder seed:${label}`).digest());
}
