import { type Did, didFromNid, InvalidDataError, type Nid, type Rid } from '@forge-httpd/identity';
import { resolveStoredRef } from '../git/refs/resolve-stored-ref.js';
import type { GitRepository } from '../git/git-repository.js';
import type { Oid } from '../git/objects/oid.js';
import { type Flavour, payloadId } from '../home/flavour.js';
import { type IdentityDocument } from '../identity-doc/identity-document.js';
import { IDENTITY_REF, loadIdentityDocument } from '../identity-doc/load-identity-document.js';
import { parseCanonicalRefsPayload, parseProjectPayload, type ProjectPayload } from '../identity-doc/payloads.js';
import { type CanonicalRefs, CanonicalRefsReader } from './canonical-refs.js';
import { computeQuorumHead } from './quorum-head.js';
import { compileRefGlob } from './ref-glob.js';
import { type RemoteRefs, RemotesReader } from './remotes.js';

/** The repository head: a qualified branch name and its commit. */
export interface RepositoryHead {
  name: string;
  oid: Oid;
}

/**
 * One repository of the node's storage (docs/node-home.md §3). Derived data is memoised by the
 * ref oids it depends on, so repeated calls are cheap and a moved ref shows on the next call.
 */
export class StoredRepository {
  private doc: { head: Oid; doc: IdentityDocument } | null = null;
  private quorum: { key: string; head: Oid } | null = null;
  private readonly canonicalRefsReader: CanonicalRefsReader;
  private readonly remotesReader: RemotesReader;

  constructor(
    readonly rid: Rid,
    readonly git: GitRepository,
    readonly flavour: Flavour,
  ) {
    this.canonicalRefsReader = new CanonicalRefsReader(git);
    this.remotesReader = new RemotesReader(git, rid);
  }

  /**
   * The commit of the accepted identity revision: top-level `refs/rad/id` (§4.4 fast path;
   * the slow path is not implemented, such repositories are unloadable).
   * @throws InvalidDataError when the ref is missing
   */
  async identityHead(): Promise<Oid> {
    const head = await this.git.resolveRef(IDENTITY_REF);
    if (head === null) throw new InvalidDataError('identity document', 'repository has no refs/rad/id');
    return head;
  }

  /**
   * The current identity document (§3.2, §4).
   * @throws InvalidDataError when it is missing or malformed
   */
  async identityDocument(): Promise<IdentityDocument> {
    const head = await this.identityHead();
    if (this.doc?.head !== head) this.doc = { head, doc: await loadIdentityDocument(this.git, head) };
    return this.doc.doc;
  }

  /**
   * Takes a document already read for the identity commit `head` (the storage index's), so a
   * repository's first page does not read it again (a good part of a cold page). Safe whatever
   * the ref says now: the document of a commit never changes, and {@link identityDocument}
   * reads the current `refs/rad/id` each time and loads again when it moved.
   */
  adoptIdentityDocument(head: Oid, doc: IdentityDocument): void {
    if (this.doc === null) this.doc = { head, doc };
  }

  /** Whether the repository is public (private repositories are never served). */
  async isPublic(): Promise<boolean> {
    return (await this.identityDocument()).visibility.type === 'public';
  }

  /** Whether `nid` (or its DID) is a delegate of the current identity document. */
  async isDelegate(nid: Nid | Did): Promise<boolean> {
    const did = nid.startsWith('did:') ? nid : didFromNid(nid as Nid);
    return (await this.identityDocument()).delegates.includes(did as Did);
  }

  /** The valid `xyz.<flavour>.project` payload, or null when absent or invalid. */
  async project(): Promise<ProjectPayload | null> {
    const doc = await this.identityDocument();
    return parseProjectPayload(doc.payloads[payloadId(this.flavour, 'project')]);
  }

  /**
   * The repository head (§3.2 step 3): `HEAD`'s target when it resolves to a commit, else the
   * delegates' quorum on the default branch (§3.3).
   * @throws InvalidDataError when neither works; InvalidDataError when unloadable
   */
  async head(): Promise<RepositoryHead> {
    const target = await this.git.readSymbolicRef('HEAD');
    const oid = target?.startsWith('refs/') ? await this.resolveOptionalRef(target) : null;
    if (target && oid !== null && (await this.git.readObjectInfo(oid))?.type === 'commit') {
      return { name: target, oid };
    }
    const project = await this.project();
    if (project === null) throw new InvalidDataError('head', 'repository has no project payload');
    return { name: `refs/heads/${project.defaultBranch}`, oid: await this.quorumHead(project) };
  }

  /**
   * Canonical refs (§3.4, docs/radicle-httpd.md §4.1) under the rules of this flavour's crefs payload;
   * without one only the default branch. A malformed payload or no project gives empty maps.
   */
  async canonicalRefs(): Promise<CanonicalRefs> {
    const doc = await this.identityDocument();
    const project = parseProjectPayload(doc.payloads[payloadId(this.flavour, 'project')]);
    const crefsId = payloadId(this.flavour, 'crefs');
    const crefs = crefsId in doc.payloads ? parseCanonicalRefsPayload(doc.payloads[crefsId]) : undefined;
    if (project === null || crefs === null) return { tags: {}, refs: {} };
    const defaultRef = `refs/heads/${project.defaultBranch}`;
    const patterns = [...(crefs?.patterns ?? [])];
    const covered = patterns.some((pattern) => compileRefGlob(pattern).test(defaultRef));
    if (!covered && crefs?.symbolic['HEAD'] === undefined) patterns.push(defaultRef);
    return this.canonicalRefsReader.read(patterns);
  }

  /** Peers with verified signed refs, sorted by NID (§3.1, §5). */
  remotes(): Promise<RemoteRefs[]> {
    return this.remotesReader.list();
  }

  /** One peer's verified signed refs, or null. */
  remote(nid: Nid): Promise<RemoteRefs | null> {
    return this.remotesReader.get(nid);
  }

  /** Resolves a ref whose name comes from stored data; a malformed name resolves to nothing. */
  private resolveOptionalRef(name: string): Promise<Oid | null> {
    return resolveStoredRef(this.git, name);
  }

  private async quorumHead(project: ProjectPayload): Promise<Oid> {
    const doc = await this.identityDocument();
    const delegates = doc.delegates.map((did) => did.slice('did:key:'.length)).sort();
    const branch = `refs/heads/${project.defaultBranch}`;
    const resolved = await Promise.all(delegates.map((nid) => this.resolveOptionalRef(`refs/namespaces/${nid}/${branch}`)));
    const tips = resolved.filter((tip): tip is Oid => tip !== null);
    const key = `${doc.threshold} ${tips.join(',')}`;
    if (this.quorum?.key !== key) {
      this.quorum = { key, head: await computeQuorumHead({ git: this.git, tips, threshold: doc.threshold }) };
    }
    return this.quorum.head;
  }
}
