import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import {
  COB_STORE_BYTES_PER_LISTED_OBJECT,
  COB_STORE_BYTES_PER_OBJECT,
  CobSnapshot,
  CobStore,
  ManifestCache,
  openSqliteEvaluations,
  type PersistedEvaluations,
} from '@forge-httpd/cob';
import { type Nid, parseRid, type Rid } from '@forge-httpd/identity';
import { type NodeHome, type StoredRepository } from '@forge-httpd/storage';
import { divideMemoryBudget } from '../config/memory-budget.js';
import { ServerConfig } from '../config/server-config.js';
import { RepositoryAccess } from '../repository-access/repository-access.service.js';
import { NODE_HOME } from '../platform/tokens.js';
import { type NodeFacts, NodeFactsMemo } from '../node/node-facts.js';
import { CobEvaluations } from './cob-evaluations.js';
import { CobRejectionLog } from './cob-rejection-log.js';

/** Repository COB stores kept at most, whatever their weight (an empty one costs a few KB). */
const MAX_COB_STORES = 1024;

/**
 * Part of the COB stores' share of the memory budget that start-up work may fill: persisted
 * objects loaded before `ready` (a short start-up step after which the first issue listing of
 * their repository is answered at once) and the background pass after it. The rest is left to the ref indexes and to the repositories visitors open.
 */
const WARM_UP_SHARE = 3 / 4;

/** Looks up node aliases, memoised for one request. */
export type AliasLookup = (nid: Nid) => string | null;

/** A repository's COBs as of one ref listing, with an alias lookup for the response. */
export interface CobView {
  readonly snapshot: CobSnapshot;
  readonly aliasOf: AliasLookup;
}

/**
 * Holds one {@link CobStore} per repository, so evaluated issues, patches and jobs are reused
 * until their refs move (docs/decisions.md "Collaborative objects"). The stores together are
 * bounded by their share of the memory budget and by {@link MAX_COB_STORES}: the least
 * recently viewed are dropped first, never the one being viewed. With a cache directory, issue
 * and patch evaluations are also kept there (one SQLite file), so a restart, or a repository
 * viewed again after its store was dropped, reuses them instead of evaluating every object again.
 */
@Injectable()
export class CobStoreService implements OnModuleDestroy {
  private readonly logger = new Logger('cob');
  /** In recency order (least recently viewed first), with each store's weight when last weighed. */
  private readonly stores = new Map<string, { readonly store: CobStore; bytes: number }>();
  /** Decoded COB manifests, shared by every repository's store (one blob per type serves them all). */
  private readonly manifests = new ManifestCache();
  private storeBytes = 0;
  private readonly maxStoreBytes: number;
  private persisted: (PersistedEvaluations & { close(): void }) | null | undefined;

  constructor(
    private readonly config: ServerConfig,
    private readonly access: RepositoryAccess,
    private readonly rejections: CobRejectionLog,
    private readonly evaluations: CobEvaluations,
    @Inject(NODE_HOME) private readonly home: NodeHome,
    private readonly nodeFacts: NodeFactsMemo,
  ) {
    this.maxStoreBytes = divideMemoryBudget(config.memoryBudgetMiB).cobStoreBytes;
  }

  /**
   * Issue and patch objects start-up work may keep in memory: persisted ones loaded before
   * `ready`, and the background pass after it (a repository that would pass it is left to its
   * first visitor). With a cache directory each object is kept without its view (written
   * there, read back per page), else with it.
   */
  get warmUpObjects(): number {
    const perObject = this.persistedEvaluations() === undefined ? COB_STORE_BYTES_PER_OBJECT : COB_STORE_BYTES_PER_LISTED_OBJECT;
    return Math.floor((this.maxStoreBytes * WARM_UP_SHARE) / perObject);
  }

  /** Stores kept, their estimated bytes and the issue and patch views they hold, for diagnostics and tests. */
  stats(): { readonly stores: number; readonly bytes: number; readonly maxBytes: number; readonly views: number } {
    let views = 0;
    for (const { store } of this.stores.values()) views += store.viewsHeld;
    return { stores: this.stores.size, bytes: this.storeBytes, maxBytes: this.maxStoreBytes, views };
  }

  /**
   * Opens a public repository and lists its refs once.
   * @throws InvalidInputError / NotFoundError from {@link RepositoryAccess}
   */
  async open(ridText: string): Promise<CobView> {
    return this.view(await this.access.openPublic(ridText));
  }

  /** Lists the refs of an opened repository once. */
  async view(repository: StoredRepository): Promise<CobView> {
    const store = this.storeFor(repository);
    const snapshot = await store.snapshot(repository);
    this.weigh(repository.rid, store);
    return { snapshot, aliasOf: this.aliasLookup() };
  }

  /**
   * Repositories whose persisted issues and patches the start-up warm-up loads: most objects
   * first, {@link warmUpObjects} objects in all, so start-up stays bounded.
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
      if (parsed === null || total + objects > this.warmUpObjects) continue;
      chosen.push(parsed);
      total += objects;
    }
    return chosen;
  }

  /** Writes what is not persisted yet and closes the cache file. */
  onModuleDestroy(): void {
    for (const { store } of this.stores.values()) store.savePending();
    this.persisted?.close();
    this.persisted = null;
  }

  /** The repository's store, now the most recently viewed. */
  private storeFor(repository: StoredRepository): CobStore {
    const kept = this.stores.get(repository.rid);
    if (kept !== undefined) {
      this.stores.delete(repository.rid);
      this.stores.set(repository.rid, kept);
      return kept.store;
    }
    // The RID only: a store must not keep the repository object alive after storage forgot it.
    const rid = repository.rid;
    const store = new CobStore(this.config.flavour, {
      manifests: this.manifests,
      onRejected: (report) => this.rejections.record(report),
      onEvaluated: (evaluation) => {
        this.evaluations.record(evaluation);
        // A listing or the background pass evaluates after the view that weighed the store.
        this.reweigh(rid, store);
      },
      onViewsLetGo: () => this.reweigh(rid, store),
      persisted: this.persistedEvaluations(),
    });
    this.stores.set(rid, { store, bytes: 0 });
    return store;
  }

  /**
   * Weighs the store just viewed again (an empty one is not kept) and drops the least recently
   * viewed ones past the bounds. Only the viewed store is weighed here (others are weighed
   * again after each evaluation), so a view costs O(1) plus the drops. A dropped store's unsaved
   * evaluations are written first; a request still holding one of its snapshots finishes with it.
   */
  private weigh(rid: string, store: CobStore): void {
    const kept = this.stores.get(rid);
    if (kept?.store === store && store.isEmpty()) {
      // Nothing worth keeping: a crawl over thousands of repositories without issues or
      // patches must not push out the stores that hold evaluations.
      this.stores.delete(rid);
      this.storeBytes -= kept.bytes;
      return;
    }
    this.reweigh(rid, store);
    for (const [oldest, entry] of this.stores) {
      if (this.stores.size <= MAX_COB_STORES && this.storeBytes <= this.maxStoreBytes) return;
      if (entry.store === store) continue;
      this.stores.delete(oldest);
      this.storeBytes -= entry.bytes;
      entry.store.savePending();
    }
  }

  /** Updates a kept store's weight (O(1)); stores are dropped on views only. */
  private reweigh(rid: string, store: CobStore): void {
    const kept = this.stores.get(rid);
    if (kept?.store !== store) return;
    const bytes = store.estimatedBytes();
    this.storeBytes += bytes - kept.bytes;
    kept.bytes = bytes;
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

  /**
   * Aliases of one answer's authors, from the node's databases as this answer first finds them
   * (remembered across requests while neither database changes: an issue list asked for them
   * two queries an author each time, a noticeable part of its cost).
   */
  private aliasLookup(): AliasLookup {
    let facts: NodeFacts | undefined;
    return (nid) => (facts ??= this.nodeFacts.current()).aliasOfNid(nid);
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
