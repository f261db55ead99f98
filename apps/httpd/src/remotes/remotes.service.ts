import { Injectable } from '@nestjs/common';
import type { Remote } from '@forge-httpd/api-types';
import type { Nid } from '@forge-httpd/identity';
import type { Oid, RemoteRefs, StoredRepository } from '@forge-httpd/storage';
import { RemoteNotFoundError } from '../git-content/errors.js';
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
   * @throws RemoteNotFoundError when the peer has no (verified) signed refs here
   */
  async getRemote(ridText: string, peer: Nid): Promise<Remote> {
    const repository = await this.access.openPublic(ridText);
    const remote = await repository.remote(peer);
    if (remote === null) throw new RemoteNotFoundError();
    return this.remoteInfo(repository, remote, this.facts.current());
  }

  private async remoteInfo(repository: StoredRepository, remote: RemoteRefs, facts: NodeFacts): Promise<Remote> {
    const { commits, unpeeled } = await this.peeledRefs(repository, remote.refs);
    // Refs that do not lead to a commit are left out (docs/radicle-httpd.md §4.6); one whose
    // object is absent is looked at again (it may arrive without the signed refs moving).
    const late = unpeeled.length === 0 ? [] : (await peelAll(repository, unpeeled)).commits;
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
      peeled = peelAll(repository, shown);
      this.peeled.set(refs, peeled);
      // A failed read (e.g. git died) is not remembered.
      peeled.catch(() => this.peeled.delete(refs));
    }
    return peeled;
  }
}

async function peelAll(repository: StoredRepository, refs: readonly (readonly [string, Oid])[]): Promise<PeeledRefs> {
  const commits: (readonly [string, Oid])[] = [];
  const unpeeled: (readonly [string, Oid])[] = [];
  for (const [name, oid] of refs) {
    const commit = await repository.git.peelToCommit(oid);
    if (commit === null) unpeeled.push([name, oid]);
    else commits.push([name, commit]);
  }
  return { commits, unpeeled };
}
