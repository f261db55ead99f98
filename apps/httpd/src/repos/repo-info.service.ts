import { Inject, Injectable, Logger } from '@nestjs/common';
import type { DelegateRef, ProjectMeta, RepoInfo, RepoRefs } from '@forge-httpd/api-types';
import { type Did, type Rid } from '@forge-httpd/identity';
import { type NodeHome, payloadId, type StoredRepository } from '@forge-httpd/storage';
import { ServerConfig } from '../config/server-config.js';
import { NODE_HOME } from '../platform/tokens.js';
import { CobCountsService } from '../cobs/cob-counts.service.js';
import { RepositoryAccess } from '../repository-access/repository-access.service.js';
import { RepositoryAliases } from '../repository-access/repository-aliases.js';
import { type NodeFacts, NodeFactsMemo } from '../node/node-facts.js';
import { type BuiltRepoInfo, RepoInfoMemo } from './repo-info-memo.js';
import { toDelegateRef, toProjectMeta, toRepoInfo, toRepoRefs } from './repo-info.mapper.js';
import { isRepositoryNotFound } from '../platform/repository-not-found.js';

/** A part of an info that could not be read, shown as docs/radicle-httpd.md §4.1 says. */
const FAILED = Symbol('failed');

/**
 * Builds repository info (docs/radicle-httpd.md §4.1) for `/repos`, `/repos/{rid}` and `/delegates/{did}/repos`,
 * and delegate references for search. Listing items are memoised ({@link RepoInfoMemo}).
 */
@Injectable()
export class RepoInfoService {
  private readonly logger = new Logger('forge-httpd');
  private readonly memo: RepoInfoMemo;

  constructor(
    private readonly config: ServerConfig,
    private readonly cobCounts: CobCountsService,
    private readonly access: RepositoryAccess,
    @Inject(NODE_HOME) home: NodeHome,
    private readonly facts: NodeFactsMemo,
    private readonly aliases: RepositoryAliases,
  ) {
    // The home's clock judges stamps, so the memo, storage and the response cache agree on "settled".
    this.memo = new RepoInfoMemo({ gitDirOf: (rid) => home.storage.gitDirOf(rid), now: home.now });
  }

  /**
   * Seeding verdicts, seed counts and aliases as of now, for one listing request.
   * @throws LockedError when a node database is locked
   */
  nodeFacts(): NodeFacts {
    return this.facts.current();
  }

  /**
   * Repository info of an opened public repository: what comes from the repository is reused
   * while it is unchanged (the listings' memo), seeds and aliases are read as of now.
   */
  async repoInfo(repository: StoredRepository): Promise<RepoInfo> {
    const shared = await this.memo.get(repository.rid, () => this.buildRepoInfo(repository));
    // Null only when this request joined a listing's build that skipped the repository (it
    // failed to read): built again here, so this page answers with the info or that failure.
    const info = shared ?? (await this.buildRepoInfo(repository)).info;
    return withAlias(withNodeFacts(info, this.facts.current()), this.aliases.aliasOf(repository.rid));
  }

  /**
   * Repository info for a listing, or null when the repository is not public, cannot be built
   * (logged) or has no project entry with its `meta` (a foreign-flavour or invalid project, or a
   * head that cannot be resolved): radicle-explorer rejects a whole listing for one such item
   * (docs/decisions.md, "Only repositories with a project of the served flavour are listed"),
   * so listings skip these repos as they skip those that fail to build. What comes from the repository is reused while it is unchanged; seeds and
   * aliases are those of `facts`.
   */
  async listedRepoInfo(rid: Rid, facts: NodeFacts): Promise<RepoInfo | null> {
    const info = await this.memo.get(rid, () => this.tryBuildPublic(rid));
    if (info === null) return null;
    const project = info.payloads[payloadId(this.config.flavour, 'project')];
    if (project === undefined || !('meta' in project)) return null;
    return withAlias(withNodeFacts(info, facts), this.aliases.aliasOf(rid));
  }

  private async tryBuildPublic(rid: Rid): Promise<BuiltRepoInfo | null> {
    const repository = await this.access.tryOpenPublic(rid);
    if (repository === null) return null;
    try {
      return await this.buildRepoInfo(repository);
    } catch (error) {
      // Gone or made private while it was read: skipped like one that is absent, silently.
      if (!isRepositoryNotFound(error)) this.logger.warn(`Skipping ${rid}: ${describe(error)}`);
      return null;
    }
  }

  /**
   * Reads the info; when a read failed (thrown, or a part left out), checks the repository
   * again, so one moved or removed while it was read answers as absent (NotFoundError), as
   * the next request will, rather than as an error or an info without its project entry.
   */
  private async buildRepoInfo(repository: StoredRepository): Promise<BuiltRepoInfo> {
    let built: BuiltRepoInfo;
    try {
      built = await this.readRepoInfo(repository);
    } catch (error) {
      await this.access.openPublicRid(repository.rid);
      throw error;
    }
    if (!built.complete) await this.access.openPublicRid(repository.rid);
    return built;
  }

  private async readRepoInfo(repository: StoredRepository): Promise<BuiltRepoInfo> {
    const facts = this.facts.current();
    const document = await repository.identityDocument();
    const project = await repository.project();
    const projectMeta = project === null ? null : await this.projectMeta(repository);
    const refs = await this.canonicalRefs(repository);
    const info = toRepoInfo({
      rid: repository.rid,
      payloads: document.payloads,
      projectPayloadId: payloadId(this.config.flavour, 'project'),
      projectValid: project !== null,
      projectMeta: projectMeta === FAILED ? null : projectMeta,
      // Replaced by the caller's facts on every use (withNodeFacts); built from them too, so
      // a build asks the databases nothing the memo of their versions does not keep.
      delegates: this.delegateRefs(document.delegates, facts),
      threshold: document.threshold,
      seeding: facts.seedCount(repository.rid),
      refs: refs === FAILED ? { tags: {}, refs: {} } : refs,
    });
    return { info, complete: projectMeta !== FAILED && refs !== FAILED };
  }

  /**
   * `{id, alias?}` for each delegate, in document order, with the aliases of `facts` (the
   * node's databases as of now unless given; a request showing many items passes its own).
   */
  delegateRefs(delegates: readonly Did[], facts: NodeFacts = this.facts.current()): DelegateRef[] {
    return delegateRefsOf(delegates, facts);
  }

  // docs/radicle-httpd.md §4.1: a failure computing the head or the counts drops the project entry only.
  private async projectMeta(repository: StoredRepository): Promise<ProjectMeta | typeof FAILED> {
    try {
      const [head, counts] = await Promise.all([repository.head(), this.cobCounts.countCobs(repository)]);
      return toProjectMeta({ head: head.oid, counts });
    } catch (error) {
      this.logger.warn(`No project meta for ${repository.rid}: ${describe(error)}`);
      return FAILED;
    }
  }

  // docs/radicle-httpd.md §4.1: failure computing the canonical refs shows empty maps.
  private async canonicalRefs(repository: StoredRepository): Promise<RepoRefs | typeof FAILED> {
    try {
      return toRepoRefs(await repository.canonicalRefs());
    } catch (error) {
      this.logger.warn(`No canonical refs for ${repository.rid}: ${describe(error)}`);
      return FAILED;
    }
  }
}

/** `info` with the seed count and delegate aliases of `facts` (the node's databases as of now). */
function withNodeFacts(info: RepoInfo, facts: NodeFacts): RepoInfo {
  // Spread keeps the wire order of the keys (docs/radicle-httpd.md §4.1).
  const delegates = delegateRefsOf(
    info.delegates.map(({ id }) => id as Did),
    facts,
  );
  return { ...info, delegates, seeding: facts.seedCount(info.rid as Rid) };
}

/** The info with the repository's alias last (docs/api.md, "Repository aliases"); unchanged when it has none. */
function withAlias(info: RepoInfo, alias: string | undefined): RepoInfo {
  return alias === undefined ? info : { ...info, alias };
}

/** `{id, alias?}` for each delegate: resolveAlias's rule, each database's answers kept per version. */
function delegateRefsOf(delegates: readonly Did[], facts: NodeFacts): DelegateRef[] {
  return delegates.map((did) => toDelegateRef(did, facts.alias(did)));
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
