import type { Did, Nid } from './brands.js';
import { InvalidInputError } from './error-kinds.js';
import { parseNid } from './nid.js';

/** Message of a malformed did. */
const INVALID_DID = 'Invalid did: expected did:key:z6Mk…';

const DID_PREFIX = 'did:key:';

/**
 * Parses a DID of the form `did:key:` + NID (docs/node-home.md §2.2).
 * @param text - candidate DID text
 * @returns the same text, branded
 * @throws InvalidInputError when the prefix or the NID part is wrong
 */
export function parseDid(text: string): Did {
  nidFromDid(text);
  return text as Did;
}

/**
 * Builds the DID of a node.
 * @param nid - a parsed NID
 * @returns `did:key:z6Mk…`
 */
export function didFromNid(nid: Nid): Did {
  return (DID_PREFIX + nid) as Did;
}

/**
 * Extracts the NID from a DID text.
 * @param did - `did:key:z6Mk…`
 * @returns the NID
 * @throws InvalidInputError when the text is not a did:key of an ed25519 key
 */
export function nidFromDid(did: string): Nid {
  if (!did.startsWith(DID_PREFIX)) throw new InvalidInputError(INVALID_DID);
  try {
    return parseNid(did.slice(DID_PREFIX.length));
  } catch {
    throw new InvalidInputError(INVALID_DID);
  }
}
