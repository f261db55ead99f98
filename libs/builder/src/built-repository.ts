import type { Did, Nid, Rid } from '@forge-httpd/identity';
import { nidFromDid } from '@forge-httpd/identity';
import { type Oid } from '@forge-httpd/storage';
import { writeSignedRefs } from '@forge-httpd/storage/write';
import type { HistoryTip } from './generated-history.js';
import type { IdentityDocumentSpec } from './identity-document.js';
import type { HomeContext, Peer } from './node-home.js';

/** A repository written by the builder and its current state (updated by later operations). */
export interface BuiltRepository {
  readonly name: string;
  readonly rid: Rid;
  /** The bare storage repository `storage/<z…>`. */
  readonly gitDir: string;
  readonly defaultBranch: string;
  /** Identity COB id (root commit). */
  readonly identityRoot: Oid;
  /** The current (accepted) identity document. */
  document: IdentityDocumentSpec;
  /** Commit of the current revision (top-level `refs/rad/id`). */
  identityHead: Oid;
  /** Canonical head of the default branch. */
  head: Oid;
  /** The default branch tip with its files when the history was generated (null if imported). */
  headTip: HistoryTip | null;
}

/** Full name of a ref inside a peer's namespace (docs/node-home.md §3.1). */
export function namespacedRef(nid: string, name: string): string {
  return `refs/namespaces/${nid}/${name}`;
}

/** The NIDs of the current delegates, in document order. */
export function delegateNids(repo: BuiltRepository): Nid[] {
  return repo.document.delegates.map((did: Did) => nidFromDid(did));
}

/**
 * Re-signs a peer's refs in a repository (a new sigrefs commit when they changed, §5) at the
 * clock's current time. Handed to the COB helper's demo collaboration as well.
 * @returns the sigrefs commit id
 */
export function resignRefs(context: HomeContext, repo: BuiltRepository, peer: Peer): Promise<Oid> {
  return writeSignedRefs({ gitDir: repo.gitDir, keyPair: peer.keyPair, time: context.clock.now() });
}
