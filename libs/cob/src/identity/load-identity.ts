/**
 * Evaluates a repository's identity COB from git (docs/node-home.md §4.4 slow path): the object
 * of type `xyz.<flavour>.id` whose root document blob is the RID, from the tips of every
 * namespace.
 */
import { oidHexFromRid, RejectedError } from '@forge-httpd/identity';
import { cobTypeName, type Flavour, type GitRepository, type Oid } from '@forge-httpd/storage';
import type { Change } from '../change.js';
import { evaluateChanges } from '../dag/evaluate-changes.js';
import { parseIdentityDoc, type IdentityDoc } from '../model/identity-doc.js';
import { readCobRefIndex } from '../read/cob-ref-index.js';
import { loadObjectChanges } from '../read/load-object-changes.js';
import { docAt, newFactCaches } from '../read/prepare-fold-env.js';
import type { CobRepository } from '../store/cob-kinds.js';
import { identityFolder } from './fold-identity.js';
import { type Identity, viewIdentity } from './identity-view.js';

/**
 * Loads the identity COB: revisions and the currently accepted document.
 * @returns the identity, or null when no valid identity object exists
 */
export async function loadIdentity(repo: CobRepository, options: { flavour: Flavour }): Promise<Identity | null> {
  const typeName = cobTypeName(options.flavour, 'id');
  const ridOid = oidHexFromRid(repo.rid) as Oid;
  const caches = newFactCaches();
  const index = await readCobRefIndex(repo.git);
  for (const [id, tips] of index.objects.get(typeName) ?? []) {
    const root = await docAt({ git: repo.git, commit: id, caches });
    if (!('blob' in root) || root.blob !== ridOid) continue;
    const changes = await loadObjectChanges({ git: repo.git, tips, typeName, cache: new Map() });
    const blobs = await revisionBlobs(repo.git, changes);
    const result = evaluateChanges({
      rootId: id,
      changes,
      folder: identityFolder({
        ridOid,
        docAt: (commit) => {
          if (commit !== id) throw new RejectedError('unexpected document lookup');
          return root;
        },
        docBlob: (blob) => {
          const doc = blobs.get(blob);
          if (doc === undefined) throw new RejectedError(`document blob ${blob} missing`);
          return doc;
        },
      }),
    });
    if (result !== null) return viewIdentity(result.state);
  }
  return null;
}

/** Parses every document blob named by a `revision` action (invalid ones are left out). */
async function revisionBlobs(git: GitRepository, changes: readonly Change[]): Promise<Map<Oid, IdentityDoc>> {
  const docs = new Map<Oid, IdentityDoc>();
  const blobs = changes.flatMap((change) =>
    change.actions
      .map((action) => (action as { type?: unknown; blob?: unknown } | null)?.blob)
      .filter((blob): blob is string => typeof blob === 'string' && /^[0-9a-f]{40}$/.test(blob)),
  );
  await Promise.all(
    [...new Set(blobs)].map(async (blob) => {
      const bytes = await git.readBlob(blob as Oid);
      if (bytes === null) return;
      try {
        docs.set(blob as Oid, parseIdentityDoc(bytes));
      } catch (error) {
        if (!(error instanceof RejectedError)) throw error;
      }
    }),
  );
  return docs;
}
