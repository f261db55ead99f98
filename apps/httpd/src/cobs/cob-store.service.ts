import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { CobSnapshot, CobStore, openSqliteEvaluations, type PersistedEvaluations } from '@forge-httpd/cob';
import { type Nid, parseRid, type Rid } from '@forge-httpd/identity';
import { type NodeHome, resolveAlias, type StoredRepository } from '@forge-httpd/storage';
import { ServerConfig } from '../config/server-config.js';
import { RepositoryAccess } from '../repository-access/repository-access.service.js';
import { NODE_HOME } from '../platform/tokens.js';
import { CobEvaluations } from './cob-evaluations.js';
import { CobRejectionLog } from './cob-rejection-log.js';

/**
 * Persisted COB objects loaded before `ready` at most (measured: 12,000 objects, ~0.5 s of
 * start-up, answer the first issue listing of their repository in milliseconds afterwards),
 * and objects the background pass after `ready` keeps in memory at most.
 */
export const WARM_UP_COB_OBJECTS = 50_000;

/** Looks up node aliases, memoised for one request. */
export type AliasLookup = (nid: Nid) => string | null;

/** A repository's COBs as of one ref listing, with an alias lookup for the response. */
export interface CobView {
  readonly snapshot: CobSnapshot;
  readonly aliasOf: AliasLookup;
}

/**
 * Holds one {@link CobStore} per repository for the server's lifetime, so evaluated issues,
 * patches and jobs are reused until their refs move (docs/decisions.md "Collaborative objects").
 * With a cache directory, issue and patch evaluations are also kept there (one SQLite file),
 * so a restart reuses them instead of evaluating every object again.
 */
@Injectable()
export class CobStoreService implements OnModuleDestroy {
  private readonly logger = new Logger('cob');
  private readonly stores = new Map<string, CobStore>();
  private persisted: (PersistedEvaluations & { close(): void }) | null | undefined;

  constructor(
    private readonly config: ServerConfig,
    private readonly access: RepositoryAccess,
    private readonly rejections: CobRejectionLog,
    private readonly evaluations: CobEvaluations,
    @Inject(NODE_HOME) private readonly home: NodeHome,
  ) {}

  /**
   * Opens a public repository and lists its refs once.
   * @throws InvalidRidError / RepoNotFoundError from {@link RepositoryAccess}
   */
  async open(ridText: string): Promise<CobView> {
    return this.view(await this.access.openPublic(ridText));
  }

  /** Lists the refs of an opened repository once. */
  async view(repository: StoredRepository): Promise<CobView> {
    const snapshot = await this.storeFor(repository).snapshot(repository);
    return { snapshot, aliasOf: this.aliasLookup() };
  }

  /**
   * Repositories whose persisted issues and patches the start-up warm-up loads: most objects
   * first, {@link WARM_UP_COB_OBJECTS} objects in all, so start-up stays bounded.
   */
  persistedRepositories(): Rid[] {
    const objectsByRid = new Map<string, number>();
    for (const { scope, objects } of this.persistedEvaluations()?.listScopes() ?? []) {
      if (scope.flavour === this.config.flavour) objectsByRid.set(scope.rid, (objectsByRid.get(scope.rid) ?? 0) + objects);
    }
    const chosen: Rid[] = [];
    let total = 0;
    for (const [rid, objects] of [...objectsByRid].sort((a, b) => b[1] - a[1])) {
      const parsed = parseRidOrNull(rid);
      if (parsed === null || total + objects > WARM_UP_COB_OBJECTS) continue;
      chosen.push(parsed);
      total += objects;
    }
    return chosen;
  }

  /** Writes what is not persisted yet and closes the cache file. */
  onModuleDestroy(): void {
    for (const store of this.stores.values()) store.savePending();
    this.persisted?.close();
    this.persisted = null;
  }

  private storeFor(repository: StoredRepository): CobStore {
    let store = this.stores.get(repository.rid);
    if (store === undefined) {
      store = new CobStore(this.config.flavour, {
        onRejected: (report) => this.rejections.record(report),
        onEvaluated: (evaluation) => this.evaluations.record(evaluation),
        persisted: this.persistedEvaluations(),
      });
      this.stores.set(repository.rid, store);
    }
    return store;
  }

  /** Opened on first use, so a server that never lists COBs never touches the directory. */
  private persistedEvaluations(): PersistedEvaluations | undefined {
    if (this.persisted === undefined) {
      const dir = this.config.cacheDir;
      this.persisted =
        dir === null
          ? null
          : openSqliteEvaluations({
              dir,
              onError: (error) => this.logger.warn(`COB cache in ${dir} not used (${error.message}): issues and patches are evaluated from git`),
            });
    }
    return this.persisted ?? undefined;
  }

  private aliasLookup(): AliasLookup {
    const memo = new Map<Nid, string | null>();
    return (nid) => {
      if (!memo.has(nid)) memo.set(nid, resolveAlias(this.home, nid));
      return memo.get(nid) ?? null;
    };
  }
}

function parseRidOrNull(text: string): Rid | null {
  try {
    return parseRid(text);
  } catch {
    // Not one we wrote: the file is ours, but a row is no reason to stop.
    return null;
  }
}
