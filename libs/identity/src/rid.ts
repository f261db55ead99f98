import type { Rid } from './brands.js';
import { InvalidInputError } from './error-kinds.js';
import { decodeMultibase, encodeMultibase } from './multibase.js';

/** Message of a malformed rid. */
const INVALID_RID = 'Invalid rid: expected rad:z… (base58 of 20 bytes)';

const RID_PREFIX = 'rad:';
const OID_HEX = /^[0-9a-f]{40}$/;

/**
 * Parses a Repository ID (docs/node-home.md §2.3). Accepts `rad:z…` and the bare `z…` form; the
 * base58 part must decode to exactly 20 bytes.
 * @param text - candidate RID text
 * @returns the canonical `rad:z…` form
 * @throws InvalidInputError for anything else
 */
export function parseRid(text: string): Rid {
  return encodeRid(ridBytes(text));
}

/**
 * Builds a RID from the 20-byte oid of the initial identity document blob.
 * @param oid - 40 lower-case hex characters, or the 20 raw bytes
 * @returns `rad:z…`
 * @throws InvalidInputError when the oid is malformed
 */
export function ridFromOid(oid: string | Uint8Array): Rid {
  if (typeof oid === 'string') {
    if (!OID_HEX.test(oid)) throw new InvalidInputError('Invalid rid: expected a 40-hex object id');
    return encodeRid(Buffer.from(oid, 'hex'));
  }
  if (oid.length !== 20) throw new InvalidInputError('Invalid rid: expected a 20-byte object id');
  return encodeRid(oid);
}

/**
 * Returns the object id (hex) behind a RID: the initial identity document blob.
 * @param rid - `rad:z…` or `z…`
 * @returns 40 lower-case hex characters
 * @throws InvalidInputError when the RID is malformed
 */
export function oidHexFromRid(rid: string): string {
  return Buffer.from(ridBytes(rid)).toString('hex');
}

/**
 * Name of the repository's directory under `storage/`: the RID without `rad:` (§1).
 * @param rid - a RID in either form
 * @returns `z…`
 * @throws InvalidInputError when the RID is malformed
 */
export function ridDirectoryName(rid: string): string {
  return parseRid(rid).slice(RID_PREFIX.length);
}

/**
 * Orders two RIDs by their raw 20 bytes, as heartwood's sorted collections do.
 * @returns negative, zero or positive like `Array.prototype.sort` expects
 * @throws InvalidInputError when either RID is malformed
 */
export function compareRids(a: string, b: string): number {
  return Buffer.compare(ridBytes(a), ridBytes(b));
}

/**
 * `rids` in {@link compareRids} order, each decoded once: sorting with `compareRids` decodes both
 * sides of every comparison (measured: 0.3 s for the 10,000 RIDs of a storage).
 * @param rids - well-formed RIDs
 * @returns a new sorted array
 * @throws InvalidInputError when a RID is malformed
 */
export function sortRids<T extends string>(rids: Iterable<T>): T[] {
  const keyed = Array.from(rids, (rid) => ({ rid, key: oidHexFromRid(rid) }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return keyed.map((entry) => entry.rid);
}

function ridBytes(text: string): Uint8Array {
  const body = text.startsWith(RID_PREFIX) ? text.slice(RID_PREFIX.length) : text;
  let bytes: Uint8Array;
  try {
    bytes = decodeMultibase(body);
  } catch {
    throw new InvalidInputError(INVALID_RID);
  }
  if (bytes.length !== 20) throw new InvalidInputError(INVALID_RID);
  return bytes;
}

function encodeRid(bytes: Uint8Array): Rid {
  return (RID_PREFIX + encodeMultibase(bytes)) as Rid;
}
