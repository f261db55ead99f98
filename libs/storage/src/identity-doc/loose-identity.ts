/**
 * Reads a repository's current identity document straight from its files, without a git
 * process: `refs/rad/id` (loose or in `packed-refs`) and the loose objects of the revision
 * (commit → tree → `embeds/` → `radicle.json`). The storage index loads thousands of
 * repositories this way at ~0.1 ms each, where one `git cat-file` process costs ~3 ms to
 * start. Reads are synchronous on purpose: five small files cost ~50 µs, far less than the
 * thread-pool round trips of asynchronous reads; callers run them in short time-boxed slices
 * so the event loop is never held for long. Anything this reader does not handle (packed objects, symbolic or odd refs, large
 * objects, unreadable files) answers `undefined`, and the caller asks git instead, whose answer
 * is authoritative.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { hashObject } from '../git/hash-object.js';
import { isGitObjectType } from '../git/object-type.js';
import { isOid, type Oid } from '../git/oid.js';
import { parseCommit } from '../git/parse-commit.js';
import { parseTree } from '../git/parse-tree.js';
import { type IdentityDocument, parseIdentityDocument } from './identity-document.js';
import { IDENTITY_DOC_PATH, IDENTITY_REF } from './load-identity-document.js';

/** Loose objects bigger than this (compressed) are left to git: identity objects are small. */
const MAX_COMPRESSED_BYTES = 256 * 1024;
const MAX_OBJECT_BYTES = 1024 * 1024;
/**
 * Output chunk of the inflater: identity objects inflate to well under 2 KiB, and chunks this
 * small come from Node's shared buffer pool instead of one 16 KiB allocation per object.
 */
const INFLATE_CHUNK = 2048;
const PACKED_NEEDLE = ` ${IDENTITY_REF}\n`;

/** What a file read found: the content, or that the file does not exist. */
type FileRead = { content: Buffer } | { missing: true } | null;

function readOptional(file: string): FileRead {
  try {
    return { content: readFileSync(file) };
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? { missing: true } : null;
  }
}

/**
 * The commit `refs/rad/id` points to: the loose ref first, then `packed-refs` (git's order).
 * @returns the oid; null when the repository has no such ref; undefined when git must decide
 *   (symbolic or malformed ref, unreadable file)
 */
export function readIdentityRefFile(gitDir: string): Oid | null | undefined {
  const loose = readOptional(path.join(gitDir, IDENTITY_REF));
  if (loose === null) return undefined;
  if ('content' in loose) {
    const text = loose.content.toString('latin1');
    const oid = text.endsWith('\n') ? text.slice(0, -1) : text;
    return isOid(oid) ? oid : undefined;
  }
  const packed = readOptional(path.join(gitDir, 'packed-refs'));
  if (packed === null) return undefined;
  if (!('content' in packed)) return null;
  const text = packed.content.toString('latin1');
  const terminated = text.endsWith('\n') ? text : `${text}\n`;
  // One native scan instead of splitting: packed-refs of a busy repository holds many refs.
  const at = terminated.indexOf(PACKED_NEEDLE);
  if (at < 0) return null;
  const oid = terminated.slice(at - 40, at);
  const lineStart = at === 40 || terminated[at - 41] === '\n';
  return lineStart && isOid(oid) ? oid : undefined;
}

/** A loose object's type and content, or null when it is not loose (or not usable here). */
function readLooseObject(gitDir: string, oid: Oid): { type: string; data: Buffer } | null {
  const file = readOptional(path.join(gitDir, 'objects', oid.slice(0, 2), oid.slice(2)));
  if (file === null || !('content' in file) || file.content.length > MAX_COMPRESSED_BYTES) return null;
  let raw: Buffer;
  try {
    // Small inputs only (bounded above): a synchronous inflate takes microseconds.
    raw = inflateSync(file.content, { maxOutputLength: MAX_OBJECT_BYTES, chunkSize: INFLATE_CHUNK });
  } catch {
    return null;
  }
  const nul = raw.indexOf(0);
  const [type, size] = raw.toString('latin1', 0, Math.max(nul, 0)).split(' ');
  const data = raw.subarray(nul + 1);
  if (nul < 0 || type === undefined || !isGitObjectType(type) || Number(size) !== data.length) return null;
  // A damaged file must not pass for the object: git would report it, so let git answer.
  return hashObject(type, data) === oid ? { type, data } : null;
}

function looseTreeEntry(gitDir: string, tree: Oid, name: string): { kind: string; oid: Oid } | null {
  const object = readLooseObject(gitDir, tree);
  if (object?.type !== 'tree') return null;
  return parseTree(object.data).find((entry) => entry.name === name) ?? null;
}

/**
 * The identity document of revision `head` read from loose objects (storage-format §4.3,
 * `embeds/radicle.json` of the commit's tree).
 * @returns the document, or undefined when an object on the way is not loose (ask git)
 * @throws IdentityDocumentError when the document blob is found but malformed
 */
export function readLooseIdentityDocument(gitDir: string, head: Oid): IdentityDocument | undefined {
  const commit = readLooseObject(gitDir, head);
  if (commit?.type !== 'commit') return undefined;
  let tree: Oid;
  try {
    tree = parseCommit(head, commit.data).tree;
  } catch {
    return undefined;
  }
  const [folder, file] = IDENTITY_DOC_PATH.split('/') as [string, string];
  const embeds = looseTreeEntry(gitDir, tree, folder);
  const entry = embeds?.kind === 'tree' ? looseTreeEntry(gitDir, embeds.oid, file) : null;
  const blob = entry?.kind === 'blob' ? readLooseObject(gitDir, entry.oid) : null;
  if (blob?.type !== 'blob') return undefined;
  return parseIdentityDocument(blob.data);
}
