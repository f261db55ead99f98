/**
 * Git object ids (SHA-1, 40 lower-case hex characters).
 */
import { InvalidInputError } from '@forge-httpd/identity';

/** A git object id: exactly 40 lower-case hex characters. Only {@link parseOid} creates one. */
export type Oid = string & { readonly __brand: 'Oid' };

/** The id of the empty tree, which git treats as always present. */
export const EMPTY_TREE_OID = '4b825dc642cb6eb9a060e54bf8d69288fbee4904' as Oid;

/** The all-zero id git writes for "no object" (a side of an added or deleted file, a deleted ref). */
export const ZERO_OID = '0'.repeat(40) as Oid;

const OID_PATTERN = /^[0-9a-f]{40}$/;
const OID_PATTERN_ANY_CASE = /^[0-9a-fA-F]{40}$/;

/**
 * The error for text that is not a 40-hex object id; its message is safe to show to clients.
 * @param parameter - the parameter named in the message
 */
export function invalidOid(parameter = 'oid'): InvalidInputError {
  return new InvalidInputError(`Invalid ${parameter}: expected 40 hexadecimal characters`);
}

/**
 * Tells whether `text` is a canonical object id (40 lower-case hex characters).
 * @param text - any value
 * @returns true when `text` can be used as an {@link Oid} as is
 */
export function isOid(text: unknown): text is Oid {
  return typeof text === 'string' && OID_PATTERN.test(text);
}

/**
 * Checks an id handed to a repository read, which takes canonical ids only.
 * @param oid - the id as the caller typed it
 * @returns `oid`
 * @throws InvalidInputError when `oid` is not a canonical object id
 */
export function checkOid(oid: Oid): Oid {
  if (!isOid(oid)) throw invalidOid();
  return oid;
}

/**
 * Parses a 40-hex object id in any case into its canonical lower-case form.
 * Short ids are rejected (no zero padding, unlike libgit2's `Oid::from_str`).
 * @param text - the candidate id
 * @param parameter - parameter name used in the error message
 * @returns the lower-case {@link Oid}
 * @throws InvalidInputError when `text` is not exactly 40 hex characters
 */
export function parseOid(text: string, parameter = 'oid'): Oid {
  if (!OID_PATTERN_ANY_CASE.test(text)) throw invalidOid(parameter);
  return text.toLowerCase() as Oid;
}
