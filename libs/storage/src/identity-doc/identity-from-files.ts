/**
 * Reads a repository's current identity document straight from its files, without a git
 * process: `refs/rad/id` (loose or in `packed-refs`) and the objects of the revision, loose or
 * packed (commit → tree → `embeds/` → `radicle.json`). The storage index loads thousands of
 * repositories this way, far cheaper than starting one `git cat-file` process each. Reads are
 * synchronous on purpose: five small files cost far less than the
 * thread-pool round trips of asynchronous reads; callers run them in short time-boxed slices
 * so the event loop is never held for long. Anything this reader does not handle (symbolic or
 * odd refs, objects the in-process reader leaves to git, unreadable files) answers `undefined`,
 * and the caller asks git instead, whose answer is authoritative.
 */
import { readRefFile } from '../git/objects/loose-files.js';
import { type StoredObject, withObjectFiles } from '../git/objects/object-files.js';
import type { ObjectReads } from '../git/objects/object-reads.js';
import type { Oid } from '../git/objects/oid.js';
import { parseCommit } from '../git/format/parse-commit.js';
import { parseTree } from '../git/format/parse-tree.js';
import { type IdentityDocument, parseIdentityDocument } from './identity-document.js';
import { IDENTITY_DOC_PATH, IDENTITY_REF } from './load-identity-document.js';

/**
 * The commit `refs/rad/id` points to, read from the files (see git/objects/loose-files.ts).
 * @returns the oid; null when the repository has no such ref; undefined when git must decide
 */
export function readIdentityRefFile(gitDir: string): Oid | null | undefined {
  return readRefFile(gitDir, IDENTITY_REF);
}

type ReadObject = (oid: Oid) => StoredObject | undefined;

function treeEntry(read: ReadObject, tree: Oid, name: string): { kind: string; oid: Oid } | null {
  const object = read(tree);
  if (object?.type !== 'tree') return null;
  return parseTree(object.data).find((entry) => entry.name === name) ?? null;
}

/**
 * The identity document of revision `head` read from the object files (docs/node-home.md §4.3,
 * `embeds/radicle.json` of the commit's tree).
 * @returns the document, or undefined when an object on the way is left to git (ask git)
 * @throws InvalidDataError when the document blob is found but malformed
 */
export function readIdentityDocumentFromFiles(gitDir: string, objects: ObjectReads, head: Oid): IdentityDocument | undefined {
  return withObjectFiles(gitDir, objects, (read) => readIdentityDocumentWith(read, head));
}

function readIdentityDocumentWith(read: ReadObject, head: Oid): IdentityDocument | undefined {
  const commit = read(head);
  if (commit?.type !== 'commit') return undefined;
  let tree: Oid;
  try {
    tree = parseCommit(head, commit.data).tree;
  } catch {
    return undefined;
  }
  const [folder, file] = IDENTITY_DOC_PATH.split('/') as [string, string];
  const embeds = treeEntry(read, tree, folder);
  const entry = embeds?.kind === 'tree' ? treeEntry(read, embeds.oid, file) : null;
  const blob = entry?.kind === 'blob' ? read(entry.oid) : undefined;
  if (blob?.type !== 'blob') return undefined;
  return parseIdentityDocument(blob.data);
}
