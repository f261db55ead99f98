import { encodeMultibase, signBytes, type KeyPair } from '@forge-httpd/identity';
import { cobTypeName, type Flavour, type Oid } from '@forge-httpd/storage';
import { hashObject } from '@forge-httpd/storage/write';
import { writeChange } from '@forge-httpd/cob/write';
import { writeBlob } from './objects.js';

/** Who writes an identity change, and when. */
export interface IdentityAuthor {
  readonly gitDir: string;
  readonly flavour: Flavour;
  readonly keyPair: KeyPair;
  readonly alias: string;
  /** Commit time in seconds. */
  readonly time: number;
}

/** Doc signature of §4.3: Ed25519 over the 20 raw bytes of the doc blob oid, multibase text. */
function signDocument(keyPair: KeyPair, blob: Oid): string {
  return encodeMultibase(signBytes(keyPair, Buffer.from(blob, 'hex')));
}

/**
 * Writes the identity root change (`rad init` step 3, docs/node-home.md §4.3, §10.2): the doc blob,
 * then a change of type `xyz.<flavour>.id` with one `revision` action (`parent: null`, title
 * "Initial revision"), `embeds/radicle.json`, message "Initialize identity", no parents.
 * @param author - the founder (first delegate)
 * @param documentJson - canonical JSON of the initial document
 * @returns the root commit id (= identity COB id) and the doc blob id (= RID bytes)
 */
export async function writeIdentityRoot(author: IdentityAuthor, documentJson: string): Promise<{ root: Oid; blob: Oid }> {
  const blob = await writeBlob(author.gitDir, documentJson);
  const action = { type: 'revision', title: 'Initial revision', blob, parent: null, signature: signDocument(author.keyPair, blob) };
  const root = await writeIdentityChange(author, { actions: [action], message: 'Initialize identity', document: documentJson, tips: [] });
  return { root, blob };
}

/**
 * Writes a "Propose revision" change (§4.3): a `revision` action whose `parent` is the current
 * revision, signed over the new doc blob, with the new doc embedded. `description` is omitted
 * when empty.
 * @returns the revision commit id (= revision id) and the new doc blob id
 */
export async function writeIdentityRevision(
  author: IdentityAuthor,
  revision: { documentJson: string; title: string; description?: string; parent: Oid; tips: readonly Oid[] },
): Promise<{ revision: Oid; blob: Oid }> {
  const blob = await writeBlob(author.gitDir, revision.documentJson);
  const action = {
    type: 'revision',
    title: revision.title,
    description: revision.description === '' ? undefined : revision.description,
    blob,
    parent: revision.parent,
    signature: signDocument(author.keyPair, blob),
  };
  const id = await writeIdentityChange(author, {
    actions: [action],
    message: 'Propose revision',
    document: revision.documentJson,
    tips: revision.tips,
  });
  return { revision: id, blob };
}

/**
 * Writes an "Accept revision" change (§4.3): `revision.accept` with the acceptor's signature over
 * the revision's doc blob. Accept changes embed nothing.
 * @returns the accept commit id
 */
export function writeIdentityAccept(author: IdentityAuthor, accept: { revision: Oid; blob: Oid; tips: readonly Oid[] }): Promise<Oid> {
  const action = { type: 'revision.accept', revision: accept.revision, signature: signDocument(author.keyPair, accept.blob) };
  return writeIdentityChange(author, { actions: [action], message: 'Accept revision', tips: accept.tips });
}

function writeIdentityChange(author: IdentityAuthor, change: { actions: unknown[]; message: string; document?: string; tips: readonly Oid[] }): Promise<Oid> {
  return writeChange({
    gitDir: author.gitDir,
    keyPair: author.keyPair,
    alias: author.alias,
    time: author.time,
    typeName: cobTypeName(author.flavour, 'id'),
    actions: change.actions,
    message: change.message,
    tips: change.tips,
    // Identity changes carry no Rad-Resource trailer (§4.3).
    resource: null,
    embeds: change.document === undefined ? [] : [{ name: 'radicle.json', content: Buffer.from(change.document, 'utf8') }],
  });
}

/** The doc blob id a document would get, without writing it (the RID of an initial doc, §2.3). */
export function documentBlobOid(documentJson: string): Oid {
  return hashObject('blob', Buffer.from(documentJson, 'utf8'));
}
