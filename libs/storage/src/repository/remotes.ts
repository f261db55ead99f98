import { type Nid, parseNid, type Rid } from '@forge-httpd/identity';
import type { GitRepository, RefEntry } from '../git/git-repository.js';
import type { Oid } from '../git/objects/oid.js';
import { firstNameAfterFolder, firstNameNotBefore } from '../git/objects/sorted-ref-names.js';
import { readSignedRefs, type SignedRefs } from '../sigrefs/read-signed-refs.js';

/** A peer of a repository and its verified signed refs (docs/node-home.md §3.1, §5). */
export interface RemoteRefs {
  nid: Nid;
  /** Namespace-relative ref names (`refs/heads/main`) → oids, sorted by name. */
  refs: Map<string, Oid>;
  /** The sigrefs commit the refs were read from. */
  sigrefs: Oid;
}

type GitReader = Pick<GitRepository, 'listRefs' | 'resolveRef' | 'readCommit' | 'findEntry' | 'readBlob'>;

/**
 * Lists a repository's remotes: namespaces holding `refs/rad/sigrefs` whose signed refs
 * verify. Each peer's verification is memoised by its sigrefs commit, so a repeated call
 * costs one ref listing and re-verifies only peers whose sigrefs moved.
 */
export class RemotesReader {
  /**
   * Each peer's signed refs, read or being read, for the sigrefs commit they were asked for:
   * callers asking at once share one read (a page of patches asks for each revision's author).
   */
  private readonly signed = new Map<string, { readonly commit: Oid; readonly read: Promise<SignedRefs | null> }>();
  /** The signed-refs refs of the last ref listing (the listing is the same array while no ref moved). */
  private sigrefsOf: { readonly listing: readonly RefEntry[]; readonly sigrefs: readonly { nid: Nid; oid: Oid }[] } | null = null;

  constructor(
    private readonly git: GitReader,
    private readonly rid: Rid,
  ) {}

  /** Every verified remote, sorted by NID. */
  async list(): Promise<RemoteRefs[]> {
    const remotes: RemoteRefs[] = [];
    for (const { nid, oid } of await this.sigrefsRefs()) {
      const signed = await this.signedRefs(nid, oid);
      if (signed?.verified) remotes.push({ nid, refs: signed.refs, sigrefs: signed.commit });
    }
    // NIDs share one length and base58 is in ASCII order, so text order is key order.
    return remotes.sort((a, b) => (a.nid < b.nid ? -1 : a.nid > b.nid ? 1 : 0));
  }

  /** One peer's verified refs, or null when it has no (valid) signed refs. */
  async get(nid: Nid): Promise<RemoteRefs | null> {
    const commit = await this.git.resolveRef(`refs/namespaces/${nid}/refs/rad/sigrefs`);
    if (commit === null) return null;
    const signed = await this.signedRefs(nid, commit);
    return signed?.verified ? { nid, refs: signed.refs, sigrefs: signed.commit } : null;
  }

  /** Every namespace's `refs/rad/sigrefs`, picked out of the ref listing once per listing. */
  private async sigrefsRefs(): Promise<readonly { nid: Nid; oid: Oid }[]> {
    const listing = await this.git.listRefs('refs/namespaces/');
    if (this.sigrefsOf?.listing === listing) return this.sigrefsOf.sigrefs;
    // A tracker lists tens of thousands of refs, a few of them signed refs: picked once per listing.
    const sigrefs = signedRefsRefs(listing);
    this.sigrefsOf = { listing, sigrefs };
    return sigrefs;
  }

  private signedRefs(nid: Nid, commit: Oid): Promise<SignedRefs | null> {
    const known = this.signed.get(nid);
    if (known?.commit === commit) return known.read;
    const read = readSignedRefs(this.git, { nid, rid: this.rid });
    this.signed.set(nid, { commit, read });
    // Only what was read for this commit is kept (the ref may have moved in between); a failed
    // or empty read is asked again next time.
    const forget = (): void => {
      if (this.signed.get(nid)?.read === read) this.signed.delete(nid);
    };
    read.then((signed) => {
      if (signed === null || signed.commit !== commit) forget();
    }, forget);
    return read;
  }
}

const NAMESPACES = 'refs/namespaces/';
const SIGREFS_IN_NAMESPACE = '/refs/rad/sigrefs';

/**
 * Every `refs/namespaces/<nid>/refs/rad/sigrefs` of a listing of `refs/namespaces/` (sorted by
 * name bytes), in listing order: two binary searches per namespace instead of a look at each
 * name. A tracker lists ~26,000 refs in a handful of namespaces, and every change a peer
 * writes gives a new listing: testing each name would cost most of a `/remotes` answer after it.
 */
export function signedRefsRefs(listing: readonly RefEntry[]): { nid: Nid; oid: Oid }[] {
  const found: { nid: Nid; oid: Oid }[] = [];
  for (let at = 0; at < listing.length;) {
    const name = (listing[at] as RefEntry).name;
    const slash = name.startsWith(NAMESPACES) ? name.indexOf('/', NAMESPACES.length) : -1;
    if (slash < 0) {
      at += 1;
      continue;
    }
    const namespace = name.slice(0, slash);
    const wanted = `${namespace}${SIGREFS_IN_NAMESPACE}`;
    const sigrefs = firstNameNotBefore(listing, wanted, at);
    const ref = listing[sigrefs];
    const nid = ref?.name === wanted ? nidOrNull(namespace.slice(NAMESPACES.length)) : null;
    if (ref !== undefined && nid !== null) found.push({ nid, oid: ref.oid });
    at = firstNameAfterFolder(listing, namespace, sigrefs);
  }
  return found;
}

/** The NID a namespace folder is named by; null for a name that is not one (an empty one too). */
function nidOrNull(text: string): Nid | null {
  try {
    return parseNid(text);
  } catch {
    return null;
  }
}
