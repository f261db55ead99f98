import { Inject, Injectable, Logger } from '@nestjs/common';
import { InvalidInputError, type Rid } from '@forge-httpd/identity';
import { isPublicSummary, type NodeHome, type StoredRepository } from '@forge-httpd/storage';
import { NODE_HOME } from '../platform/tokens.js';
import { isRepositoryNotFound, repositoryNotFound } from '../platform/repository-not-found.js';
import { RepositoryAliases } from './repository-aliases.js';

/**
 * The single gate to repositories for every `/repos/{rid}/…` route: a private repository is
 * indistinguishable from an absent one (docs/api.md rule 2, docs/decisions.md "Private == absent").
 */
@Injectable()
export class RepositoryAccess {
  private readonly logger = new Logger('forge-httpd');

  constructor(
    @Inject(NODE_HOME) private readonly home: NodeHome,
    private readonly aliases: RepositoryAliases,
  ) {}

  /**
   * Opens a public repository from the `{rid}` path text: a RID or a repository alias.
   * @throws InvalidInputError (400) when the text is neither a RID nor an alias
   * @throws NotFoundError (404) when the repository is absent or not public
   */
  async openPublic(ridText: string): Promise<StoredRepository> {
    return this.openPublicRid(this.aliases.parse(ridText));
  }

  /**
   * Opens a public repository by parsed RID (listings).
   * @throws NotFoundError when the repository is absent or not public
   */
  async openPublicRid(rid: Rid): Promise<StoredRepository> {
    // Absent and private take the same path, one lookup in the storage index, so the time of a
    // 404 does not tell them apart (the index follows storage within its sweep bound; a
    // repository made private is also caught by the check on the repository itself below).
    const index = this.home.storageIndex;
    await index.ready();
    const indexed = index.get(rid);
    if (indexed === undefined || !isPublicSummary(indexed)) throw repositoryNotFound();
    const repository = await this.home.storage.openRepository(rid);
    if (repository === null) throw repositoryNotFound();
    // The index read this document already; the check below still reads the current
    // `refs/rad/id`, and reads the document again if it moved.
    if (indexed.identityHead !== null && indexed.document !== null) repository.adoptIdentityDocument(indexed.identityHead, indexed.document);
    if (!(await repository.isPublic())) throw repositoryNotFound();
    return repository;
  }

  /**
   * Whether the `{rid}` path text names a repository served now: asked after a read failed
   * unexpectedly, so one moved, removed or made private while it was read answers as absent.
   * @returns false when it is absent, private or the text is not a RID; true otherwise,
   *   also when opening it fails for another reason (that failure stays the answer's)
   */
  async isServed(ridText: string): Promise<boolean> {
    try {
      await this.openPublic(ridText);
      return true;
    } catch (error) {
      return !(isRepositoryNotFound(error) || error instanceof InvalidInputError);
    }
  }

  /**
   * Opens a public repository for a listing: null instead of an error when it is absent,
   * private or fails to load (listings skip such repositories, docs/radicle-httpd.md §5.6).
   */
  async tryOpenPublic(rid: Rid): Promise<StoredRepository | null> {
    try {
      return await this.openPublicRid(rid);
    } catch (error) {
      if (!isRepositoryNotFound(error)) {
        this.logger.warn(`Skipping ${rid}: ${error instanceof Error ? error.message : String(error)}`);
      }
      return null;
    }
  }
}
