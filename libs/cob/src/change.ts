import type { Nid } from '@forge-httpd/identity';
import type { Oid } from '@forge-httpd/storage';

/**
 * One loaded COB change (docs/node-home.md §6): a signed commit whose tree holds a manifest and
 * numbered action blobs. Immutable once built, so it can be cached by commit id.
 */
export interface Change {
  /** Commit id; also the entry id of the actions it carries (comment id, revision id…). */
  readonly id: Oid;
  /** Tree id: the bytes the author signed (20 raw bytes). */
  readonly tree: Oid;
  /** History parents: commit parents minus the resource and related oids (§6.4). */
  readonly parents: readonly Oid[];
  /** `Rad-Related` oids. */
  readonly related: readonly Oid[];
  /** `Rad-Resource` oid: the identity commit used for authorisation; null when absent. */
  readonly resource: Oid | null;
  /** The signer of the change (the op author), not the commit author line. */
  readonly author: Nid;
  /** Committer time in seconds (the op timestamp). */
  readonly timestamp: number;
  /** Manifest `typeName`. */
  readonly typeName: string;
  /** Action blobs decoded as JSON, in numeric file-name order; `undefined` = undecodable. */
  readonly actions: readonly unknown[];
  /** Whether the SSHSIG signature verifies against the tree oid bytes. */
  readonly signatureValid: boolean;
}
