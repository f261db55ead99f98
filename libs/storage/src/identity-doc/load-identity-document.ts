import { InvalidDataError } from '@forge-httpd/identity';
import type { GitRepository } from '../git/git-repository.js';
import type { Oid } from '../git/objects/oid.js';
import { type IdentityDocument, parseIdentityDocument } from './identity-document.js';

/** Path of the document blob in an identity revision's tree (docs/node-home.md §4.3). */
export const IDENTITY_DOC_PATH = 'embeds/radicle.json';

/** Top-level ref holding the currently accepted identity revision (§3.1, §4.4). */
export const IDENTITY_REF = 'refs/rad/id';

/**
 * Reads the identity document of the revision commit `identityHead` (docs/node-home.md §3.2
 * step 2: `embeds/radicle.json` of its tree).
 * @throws InvalidDataError when the commit or its document is missing or malformed
 */
export async function loadIdentityDocument(git: Pick<GitRepository, 'findEntry' | 'readBlob'>, identityHead: Oid): Promise<IdentityDocument> {
  const entry = await git.findEntry(identityHead, IDENTITY_DOC_PATH);
  const blob = entry?.kind === 'blob' ? await git.readBlob(entry.oid) : null;
  if (blob === null) throw new InvalidDataError('identity document', 'identity revision has no document');
  return parseIdentityDocument(blob);
}
