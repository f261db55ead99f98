import { Inject, Injectable } from '@nestjs/common';
import type { Remote } from '@forge-httpd/api-types';
import type { Nid } from '@forge-httpd/identity';
import { type NodeHome, type RemoteRefs, resolveAlias, type StoredRepository } from '@forge-httpd/storage';
import { RemoteNotFoundError } from '../git-content/errors.js';
import { RepositoryAccess } from '../repository-access/repository-access.service.js';
import { NODE_HOME } from '../platform/tokens.js';
import { isShownRemoteRef, toRemote } from './remote.mapper.js';

/** Peers of a repository from their verified signed refs (docs/api.md 15–16). */
@Injectable()
export class RemotesService {
  constructor(
    @Inject(NODE_HOME) private readonly home: NodeHome,
    private readonly access: RepositoryAccess,
  ) {}

  /** `GET /remotes` (docs/radicle-httpd.md §5.15): every peer with verified signed refs, by NID. */
  async listRemotes(ridText: string): Promise<Remote[]> {
    const repository = await this.access.openPublic(ridText);
    const remotes = await repository.remotes();
    return Promise.all(remotes.map((remote) => this.remoteInfo(repository, remote)));
  }

  /**
   * `GET /remotes/{peer}` (docs/radicle-httpd.md §5.16).
   * @throws RemoteNotFoundError when the peer has no (verified) signed refs here
   */
  async getRemote(ridText: string, peer: Nid): Promise<Remote> {
    const repository = await this.access.openPublic(ridText);
    const remote = await repository.remote(peer);
    if (remote === null) throw new RemoteNotFoundError();
    return this.remoteInfo(repository, remote);
  }

  private async remoteInfo(repository: StoredRepository, remote: RemoteRefs): Promise<Remote> {
    const refs: [string, string][] = [];
    for (const [name, oid] of remote.refs) {
      if (!isShownRemoteRef(name)) continue;
      // Refs that do not lead to a commit are left out (docs/radicle-httpd.md §4.6).
      const commit = await repository.git.peelToCommit(oid);
      if (commit !== null) refs.push([name, commit]);
    }
    return toRemote({
      nid: remote.nid,
      alias: resolveAlias(this.home, remote.nid),
      refs,
      delegate: await repository.isDelegate(remote.nid),
    });
  }
}
