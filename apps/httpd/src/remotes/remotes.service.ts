import { NotFoundError } from '@forge-httpd/identity';
import { Injectable } from '@nestjs/common';
import type { Remote } from '@forge-httpd/api-types';
import type { Nid } from '@forge-httpd/identity';
import { BoundedCache } from '@forge-httpd/bounded-cache';
import type { Oid, RemoteRefs, StoredRepository } from '@forge-httpd/storage';
import { RepositoryAccess } from '../repository-access/repository-access.service.js';
import { type NodeFacts, NodeFactsMemo } from '../node/node-facts.js';
import { isShownRemoteRef, toRemote } from './remote.mapper.js';

/** A remote's shown refs peeled to commits, and the shown refs that did not peel (yet). */
interface PeeledRefs {
  readonly commits: readonly (readonly [string, Oid])[];
  readonly unpeeled: readonly (readonly [string, Oid])[];
}

/** Peers of a repository from their verified signed refs (docs/api.md 15–16). */
@Injectable()
export class RemotesService {
  /**
   * Peeled refs per remote, keyed by its refs map: storage hands out the same map while the
   * peer's signed refs are unchanged, and objects never change. A tracker's peers sign
   * thousands of patch branches, which were peeled again on every request.
   */
  private readonly peeled = new WeakMap<ReadonlyMap<string, Oid>, Promise<PeeledRefs>>();
  /**
   * Commits that objects peeled to, by repository and object (per repository: an object absent
   * from one must not show there as it peels in another); an object that did not peel is not
   * kept. A peer signing its refs again after each change it writes gives a new refs map with
   * mostly the same objects: a tracker peer's ~400 branches were peeled again, one after
   * another, after every comment.
   */
  private readonly peeledObjects = new BoundedCache<string, Oid>({ maxEntries: MAX_PEELED_OBJECTS });

  constructor(
    private readonly facts: NodeFactsMemo,
    private readonly access: RepositoryAccess,
  ) {}

  /** `GET /remotes` (docs/radicle-httpd.md §5.15): every peer with verified signed refs, by NID. */
  async listRemotes(ridText: string): Promise<Remote[]> {
    const repository = await this.access.openPublic(ridText);
    const remotes = await repository.remotes();
    // Aliases as the databases are now, for every peer (two queries a peer otherwise).
    const facts = this.facts.current();
    return Promise.all(remotes.map((remote) => this.remoteInfo(repository, remote, facts)));
  }

  /**
   * `GET /remotes/{peer}` (docs/radicle-httpd.md §5.16).
   * @throws NotFoundError when the peer has no (verified) signed refs here
   */
  async getRemote(ridText: string, peer: Nid): Promise<Remote> {
    const repository = await this.access.openPublic(ridText);
    const remote = await repository.remote(peer);
    if (remote === null) throw new NotFoundError('remote');
    return this.remoteInfo(repository, remote, this.facts.current());
  }

  private async remoteInfo(repository: StoredRepository, remote: RemoteRefs, facts: NodeFacts): Promise<Remote> {
    const { commits, unpeeled } = await this.peeledRefs(repository, remote.refs);
    // Refs that do not lead to a commit are left out (docs/radicle-httpd.md §4.6); one whose
    // object is absent is looked at again (it may arrive without the signed refs moving).
    const late = unpeeled.length === 0 ? [] : (await peelAll(repository, unpeeled, this.peeledObjects)).commits;
    const refs = late.length === 0 ? commits : [...commits, ...late];
    return toRemote({
      nid: remote.nid,
      alias: facts.aliasOfNid(remote.nid),
      refs,
      delegate: await repository.isDelegate(remote.nid),
    });
  }

  private peeledRefs(repository: StoredRepository, refs: ReadonlyMap<string, Oid>): Promise<PeeledRefs> {
    let peeled = this.peeled.get(refs);
    if (peeled === undefined) {
      const shown = [...refs].filter(([name]) => isShownRemoteRef(name));
      peeled = peelAll(repository, shown, this.peeledObjects);
      this.peeled.set(refs, peeled);
      // A failed read (e.g. git died) is not remembered.
      peeled.catch(() => this.peeled.delete(refs));
    }
    return peeled;
  }
}

/** Objects whose commit is remembered (~250 bytes each; a tracker's peers sign ~2,000 branches). */
const MAX_PEELED_OBJECTS = 16_384;
/** Refs peeled at once: their reads are pipelined through one cat-file process. */
const PEEL_CONCURRENCY = 16;

/**
 * Peels refs to commits, in their order; an object in `known` is not read again, and an
 * object that does not peel (yet) is not remembered there.
 */
async function peelAll(repository: StoredRepository, refs: readonly (readonly [string, Oid])[], known: BoundedCache<string, Oid>): Promise<PeeledRefs> {
  const key = (oid: Oid): string => `${repository.rid} ${oid}`;
  const peeled = new Array<Oid | null>(refs.length).fill(null);
  const unknown: number[] = [];
  refs.forEach(([, oid], i) => {
    const commit = known.get(key(oid));
    if (commit === undefined) unknown.push(i);
    else peeled[i] = commit;
  });
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < unknown.length) {
      const i = unknown[next++] as number;
      const oid = (refs[i] as readonly [string, Oid])[1];
      const commit = await repository.git.peelToCommit(oid);
      peeled[i] = commit;
      if (commit !== null) known.set(key(oid), commit);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PEEL_CONCURRENCY, unknown.length) }, worker));
  const commits: (readonly [string, Oid])[] = [];
  const unpeeled: (readonly [string, Oid])[] = [];
  refs.forEach(([name, oid], i) => {
    const commit = peeled[i];
    if (commit === null || commit === undefined) unpeeled.push([name, oid]);
    else commits.push([name, commit]);
  });
  return { commits, unpeeled };
}
