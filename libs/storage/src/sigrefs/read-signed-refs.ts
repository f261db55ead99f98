import { oidHexFromRid, publicKeyFromNid, type Rid, verifySignature } from '@forge-httpd/identity';
import type { GitRepository } from '../git/git-repository.js';
import type { Oid } from '../git/objects/oid.js';
import { parseSignedRefsBlob, SIGREFS_PARENT_REF, SIGREFS_REF } from './format-signed-refs.js';

/** A peer's signed refs as read from its sigrefs commit (docs/node-home.md §5). */
export interface SignedRefs {
  /** The sigrefs commit. */
  commit: Oid;
  /** Namespace-relative ref names → oids, without the `refs/rad/sigrefs-parent` pseudo-ref. */
  refs: Map<string, Oid>;
  /** True when the signature and the repository checks of §5 passed. */
  verified: boolean;
}

/** Whom to read: the namespace owner, and the repository RID to check `refs/rad/root` with. */
export interface SignedRefsTarget {
  nid: string;
  /** Without it the `refs/rad/root` check is skipped. */
  rid?: Rid;
}

const DOC_PATH = 'embeds/radicle.json';

/**
 * Reads and verifies `refs/namespaces/<nid>/refs/rad/sigrefs` (docs/node-home.md §5): the
 * Ed25519 signature over the `refs` blob must verify with the namespace key; a listed
 * `refs/rad/sigrefs-parent` (Radicle ≥ 1.7) must equal the commit's parent and is not
 * reported as a ref; a listed `refs/rad/root` must hold the document blob the RID names.
 * @returns null when the peer has no sigrefs ref
 */
export async function readSignedRefs(
  git: Pick<GitRepository, 'resolveRef' | 'readCommit' | 'findEntry' | 'readBlob'>,
  target: SignedRefsTarget,
): Promise<SignedRefs | null> {
  const commit = await git.resolveRef(`refs/namespaces/${target.nid}/${SIGREFS_REF}`);
  if (commit === null) return null;
  const unverified: SignedRefs = { commit, refs: new Map(), verified: false };
  const sigrefs = await git.readCommit(commit);
  if (sigrefs === null) return unverified;
  const [refsBlob, signature] = await Promise.all([readTreeBlob(git, commit, 'refs'), readTreeBlob(git, commit, 'signature')]);
  const refs = refsBlob === null ? null : parseSignedRefsBlob(refsBlob);
  if (refsBlob === null || refs === null || signature === null) return unverified;
  const parentLine = refs.get(SIGREFS_PARENT_REF);
  refs.delete(SIGREFS_PARENT_REF);
  const verified =
    signature.length === 64 &&
    isSignatureValid(target.nid, refsBlob, signature) &&
    (parentLine === undefined || parentLine === sigrefs.parents[0]) &&
    (await isRootValid(git, refs.get('refs/rad/root'), target.rid));
  return { commit, refs, verified };
}

function isSignatureValid(nid: string, message: Buffer, signature: Buffer): boolean {
  try {
    return verifySignature(publicKeyFromNid(nid), message, signature);
  } catch {
    return false;
  }
}

async function readTreeBlob(git: Pick<GitRepository, 'findEntry' | 'readBlob'>, commit: Oid, name: string): Promise<Buffer | null> {
  const entry = await git.findEntry(commit, name);
  return entry?.kind === 'blob' ? git.readBlob(entry.oid) : null;
}

async function isRootValid(git: Pick<GitRepository, 'findEntry'>, root: Oid | undefined, rid: Rid | undefined): Promise<boolean> {
  if (root === undefined || rid === undefined) return true;
  const entry = await git.findEntry(root, DOC_PATH);
  return entry?.kind === 'blob' && entry.oid === oidHexFromRid(rid);
}
