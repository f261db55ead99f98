import type { Nid } from '@forge-httpd/identity';
import type { Oid } from '@forge-httpd/storage';
import type { IdentityDoc } from './identity-doc.js';

/**
 * Repository facts a fold may consult, resolved before the (synchronous) fold runs so that
 * reducers stay pure: identity documents at resources, merge reachability, commit existence.
 */
export interface FoldEnv {
  /** `xyz.<flavour>.project`, for the default branch used by merges. */
  readonly projectPayloadId: string;
  /**
   * The identity document at a change's `Rad-Resource` commit.
   * @throws RejectedError when the resource is absent or its document cannot be loaded
   */
  docAt(resource: Oid | null): IdentityDoc;
  /**
   * Whether `commit` is the head, or an ancestor of the head, of `refs/namespaces/<nid>/<branch>`
   * (`branch` fully qualified, `refs/heads/…`); false when that ref does not exist.
   */
  isOnBranch(query: { readonly nid: Nid; readonly branch: string; readonly commit: Oid }): boolean;
  /** Whether a commit with this id exists in the repository. */
  hasCommit(oid: Oid): boolean;
}
