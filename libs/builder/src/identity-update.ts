import { cobTypeName, type Oid } from '@forge-httpd/storage';
import { updateRefs } from '@forge-httpd/storage/write';
import { delegateNids, namespacedRef, resignRefs, type BuiltRepository } from './built-repository.js';
import { updateCanonicalHead } from './canonical-head.js';
import { listCobTips } from './cob-tips.js';
import { writeIdentityAccept, writeIdentityRevision, type IdentityAuthor } from './identity-cob.js';
import { encodeIdentityDocument, type IdentityDocumentSpec } from './identity-document.js';
import type { HomeContext, Peer } from './node-home.js';

/** Inputs of {@link updateIdentity}. */
export interface UpdateIdentityOptions {
  /** A current delegate who proposes the revision. */
  readonly author: Peer;
  /** Further current delegates, asked in order to accept until a majority is reached. */
  readonly approvers?: readonly Peer[];
  readonly title: string;
  readonly description?: string;
  /** The complete new document. */
  readonly document: IdentityDocumentSpec;
}

/** Outcome of {@link updateIdentity}. */
export interface IdentityUpdate {
  /** Revision id (the "Propose revision" commit). */
  readonly revision: Oid;
  /** True when a majority of the current delegates voted for it, so it became current. */
  readonly adopted: boolean;
}

/**
 * Proposes an identity revision and collects accepts (docs/node-home.md §4.3, §4.4): the author's
 * "Propose revision" change, then "Accept revision" changes from approvers until a majority of
 * the CURRENT delegates (len/2 + 1, not the threshold) holds it. When adopted, top-level
 * `refs/rad/id` moves to the revision and the canonical head is recomputed for the new
 * delegates/threshold. Each writer's `refs/cobs/<id type>/<root>` moves, its `refs/rad/id`
 * becomes symbolic to it, and its refs are re-signed.
 * @returns the revision id and whether it was adopted
 */
export async function updateIdentity(context: HomeContext, repo: BuiltRepository, options: UpdateIdentityOptions): Promise<IdentityUpdate> {
  const current = delegateNids(repo);
  if (!current.includes(options.author.keyPair.nid)) throw new Error('identity update: the author must be a delegate');
  const documentJson = encodeIdentityDocument(context.flavour, options.document);
  const typeName = cobTypeName(context.flavour, 'id');
  const tips = () => listCobTips({ gitDir: repo.gitDir, typeName, objectId: repo.identityRoot });
  const proposal = await writeIdentityRevision(identityAuthor(context, repo, options.author), {
    documentJson,
    title: options.title,
    description: options.description,
    parent: repo.identityHead,
    tips: await tips(),
  });
  await moveIdentityRefs(context, repo, { peer: options.author, change: proposal.revision });
  let votes = 1;
  const majority = Math.floor(current.length / 2) + 1;
  for (const approver of options.approvers ?? []) {
    if (votes >= majority) break;
    if (!current.includes(approver.keyPair.nid) || approver.keyPair.nid === options.author.keyPair.nid) continue;
    const accept = await writeIdentityAccept(identityAuthor(context, repo, approver), {
      revision: proposal.revision,
      blob: proposal.blob,
      tips: await tips(),
    });
    await moveIdentityRefs(context, repo, { peer: approver, change: accept });
    votes += 1;
  }
  const adopted = votes >= majority;
  if (adopted) await adoptRevision(repo, { revision: proposal.revision, document: options.document });
  for (const peer of [options.author, ...(options.approvers ?? [])]) await resignRefs(context, repo, peer);
  return { revision: proposal.revision, adopted };
}

function identityAuthor(context: HomeContext, repo: BuiltRepository, peer: Peer): IdentityAuthor {
  return { gitDir: repo.gitDir, flavour: context.flavour, keyPair: peer.keyPair, alias: peer.alias, time: context.clock.tick() };
}

async function moveIdentityRefs(context: HomeContext, repo: BuiltRepository, input: { peer: Peer; change: Oid }): Promise<void> {
  const nid = input.peer.keyPair.nid;
  const cobRef = namespacedRef(nid, `refs/cobs/${cobTypeName(context.flavour, 'id')}/${repo.identityRoot}`);
  await updateRefs(repo.gitDir, [
    { name: cobRef, oid: input.change },
    { name: namespacedRef(nid, 'refs/rad/root'), oid: repo.identityRoot },
    { name: namespacedRef(nid, 'refs/rad/id'), symbolicTarget: cobRef },
  ]);
}

async function adoptRevision(repo: BuiltRepository, input: { revision: Oid; document: IdentityDocumentSpec }): Promise<void> {
  repo.document = input.document;
  repo.identityHead = input.revision;
  await updateRefs(repo.gitDir, [{ name: 'refs/rad/id', oid: input.revision }]);
  const head = await updateCanonicalHead({
    gitDir: repo.gitDir,
    delegates: delegateNids(repo),
    threshold: repo.document.threshold,
    branch: repo.defaultBranch,
  });
  if (head !== null) repo.head = head;
}
