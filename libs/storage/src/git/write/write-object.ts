import { randomBytes } from 'node:crypto';
import { mkdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { deflate } from 'node:zlib';
import { hashObject, objectHeader } from '../objects/hash-object.js';
import type { GitObjectType } from '../objects/object-type.js';
import type { Oid } from '../objects/oid.js';

const deflateAsync = promisify(deflate);

/**
 * Stores an object as a loose object (`objects/xx/yyyy…`, zlib of header + content),
 * the way git does: written to a temporary file and renamed into place, skipped when the
 * object already exists loose. Ids are reproducible; the compressed bytes are not meant to be.
 * @param gitDir - the repository's git directory
 * @param type - object type
 * @param bytes - object content (without header)
 * @returns the object id
 */
export async function writeObject(gitDir: string, type: GitObjectType, bytes: Uint8Array): Promise<Oid> {
  const oid = hashObject(type, bytes);
  const dir = path.join(gitDir, 'objects', oid.slice(0, 2));
  const file = path.join(dir, oid.slice(2));
  if (await exists(file)) return oid;
  const compressed = await deflateAsync(Buffer.concat([objectHeader(type, bytes.length), bytes]));
  await mkdir(dir, { recursive: true });
  const temporary = path.join(dir, `tmp_obj_${randomBytes(6).toString('hex')}`);
  // Loose objects are read-only in git; rename makes the object appear atomically.
  await writeFile(temporary, compressed, { mode: 0o444 });
  try {
    await rename(temporary, file);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
  return oid;
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}
