import { Inject, Injectable, Logger } from '@nestjs/common';
import type { DelegateRef, ProjectMeta, RepoInfo, RepoRefs } from '@forge-httpd/api-types';
import { type Did, nidFromDid } from '@forge-httpd/identity';
import { type NodeHome, payloadId, resolveAlias, type StoredRepository } from '@forge-httpd/storage';
import { ServerConfig } from '../config/server-config.js';
import { NODE_HOME } from '../platform/tokens.js';
import { CobCountsService } from '../cobs/cob-counts.service.js';
import { toDelegateRef, toProjectMeta, toRepoInfo, toRepoRefs } from './repo-info.mapper.js';

/**
 * Builds repository info (docs/radicle-httpd.md §4.1) for `/repos`, `/repos/{rid}` and `/delegates/{did}/repos`,
 * and delegate references for search.
 */
@Injectable()
export class RepoInfoService {
  private readonly logger = new Logger('forge-httpd');

  constructor(
    private readonly config: ServerConfig,
    private readonly cobCounts: CobCountsService,
    @Inject(NODE_HOME) private readonly home: NodeHome,
  ) {}

  /** Repository info of an opened public repository. */
  async repoInfo(repository: StoredRepository): Promise<RepoInfo> {
    const document = await repository.identityDocument();
    const project = await repository.project();
    return toRepoInfo({
      rid: repository.rid,
      payloads: document.payloads,
      projectPayloadId: payloadId(this.config.flavour, 'project'),
      projectValid: project !== null,
      projectMeta: project === null ? null : await this.projectMeta(repository),
      delegates: this.delegateRefs(document.delegates),
      threshold: document.threshold,
      seeding: this.home.nodeDb.seedCount(repository.rid),
      refs: await this.canonicalRefs(repository),
    });
  }

  /**
   * Repository info for a listing, or null when it cannot be built (logged) or has no project
   * entry with its `meta` (a foreign-flavour or invalid project, or a head that cannot be
   * resolved): radicle-explorer rejects a whole listing for one such item (docs/decisions.md,
   * "General rule"), so listings skip these repos as they skip those that fail to build.
   */
  async tryListedRepoInfo(repository: StoredRepository): Promise<RepoInfo | null> {
    try {
      const info = await this.repoInfo(repository);
      const project = info.payloads[payloadId(this.config.flavour, 'project')];
      return project !== undefined && 'meta' in project ? info : null;
    } catch (error) {
      this.logger.warn(`Skipping ${repository.rid}: ${describe(error)}`);
      return null;
    }
  }

  /** `{id, alias?}` for each delegate, in document order. */
  delegateRefs(delegates: readonly Did[]): DelegateRef[] {
    return delegates.map((did) => toDelegateRef(did, resolveAlias(this.home, nidFromDid(did))));
  }

  // docs/radicle-httpd.md §4.1: a failure computing the head or the counts drops the project entry only.
  private async projectMeta(repository: StoredRepository): Promise<ProjectMeta | null> {
    try {
      const [head, counts] = await Promise.all([repository.head(), this.cobCounts.countCobs(repository)]);
      return toProjectMeta({ head: head.oid, counts });
    } catch (error) {
      this.logger.warn(`No project meta for ${repository.rid}: ${describe(error)}`);
      return null;
    }
  }

  // docs/radicle-httpd.md §4.1: failure computing the canonical refs shows empty maps.
  private async canonicalRefs(repository: StoredRepository): Promise<RepoRefs> {
    try {
      return toRepoRefs(await repository.canonicalRefs());
    } catch (error) {
      this.logger.warn(`No canonical refs for ${repository.rid}: ${describe(error)}`);
      return { tags: {}, refs: {} };
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
