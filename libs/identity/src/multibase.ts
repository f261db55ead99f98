import bs58 from 'bs58';
import { InvalidInputError } from './error-kinds.js';

/** Message of a malformed multibase. */
const INVALID_MULTIBASE = 'Invalid multibase: expected z followed by base58btc';

/**
 * Encodes bytes as multibase base58btc (`z` + Bitcoin-alphabet base58), the only base
 * heartwood writes (docs/node-home.md §2.2).
 * @param bytes - the raw bytes (NID key bytes, RID oid, a 64-byte signature…)
 * @returns the text, starting with `z`
 */
export function encodeMultibase(bytes: Uint8Array): string {
  return flat('z' + bs58.encode(bytes));
}

/**
 * `text` as one flat string. bs58 appends its output a character at a time, which V8 keeps as
 * a rope of ~40 nodes (32 bytes each) until the text is read; ids held by evaluated issues and
 * patches stayed ropes, a fifth of the heap after listing a big tracker. Base58 is ASCII, so latin1 copies it exactly.
 */
function flat(text: string): string {
  return Buffer.from(text, 'latin1').toString('latin1');
}

/**
 * Decodes a multibase base58btc text. Only the `z` prefix is accepted; the text must be the
 * canonical encoding of its bytes (re-encoding gives the same text).
 * @param text - `z…`
 * @returns the decoded bytes
 * @throws InvalidInputError when the prefix or an alphabet character is wrong
 */
export function decodeMultibase(text: string): Uint8Array {
  if (!text.startsWith('z') || text.length < 2) throw new InvalidInputError(INVALID_MULTIBASE);
  const bytes = bs58.decodeUnsafe(text.slice(1));
  if (bytes === undefined || bs58.encode(bytes) !== text.slice(1)) throw new InvalidInputError(INVALID_MULTIBASE);
  return bytes;
}
