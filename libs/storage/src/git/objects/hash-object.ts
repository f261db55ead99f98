import { createHash } from 'node:crypto';
import type { GitObjectType } from './object-type.js';
import type { Oid } from './oid.js';

/**
 * Builds the loose-object header `"<type> <size>\0"` that precedes the content
 * when git hashes or stores an object.
 * @param type - object type
 * @param size - content length in bytes
 * @returns the header bytes
 */
export function objectHeader(type: GitObjectType, size: number): Buffer {
  return Buffer.from(`${type} ${size}\0`, 'latin1');
}

/**
 * Computes an object id exactly like `git hash-object -t <type> --literally`:
 * SHA-1 over the header and the content.
 * @param type - object type
 * @param bytes - object content (without header)
 * @returns the object id
 */
export function hashObject(type: GitObjectType, bytes: Uint8Array): Oid {
  const hash = createHash('sha1');
  hash.update(objectHeader(type, bytes.length));
  hash.update(bytes);
  return hash.digest('hex') as Oid;
}
