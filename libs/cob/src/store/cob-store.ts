/**
 * Evaluated COBs of one repository, cached by the tips of their refs (and the few other refs
 * a result depends on), so an unchanged object costs nothing and a new change shows on the
 * next request. Everything is read from git (never from `cobs/cache.db`), or from the
 * caller's own {@link PersistedEvaluations} of an earlier run, checked against the same tips.
 *
 * With a persisted place, memory keeps of each issue and patch only what listings sort and
 * filter by: a view is let go once it is written there, and read back for the pages that show
 * it, so a big tracker's heap is what listings need, not every view.
 */
import type { Flavour, Oid, RefEntry } from '@forge-httpd/storage';
import type { ChangeRejection } from '../dag/evaluate-changes.js';
import { ManifestCache } from '../read/load-change.js';
import { loadObjectChanges } from '../read/load-object-changes.js';
import { COB_REF_PREFIX, type CobRefChanges, type CobRefIndex, updateCobRefIndex } from '../read/cob-ref-index.js';
import { type FactCaches, newFactCaches, prepareFoldEnv } from '../read/prepare-fold-env.js';
import type { CachedObject, ListingMemo, RootTime } from './cached-object.js';
import { type CobKind, cobKinds, type CobKinds, type CobRepository, JOB_TYPE_NAME } from './cob-kinds.js';
import { CobSnapshot } from './cob-snapshot.js';
import { compareNewestFirst } from './listing-order.js';
import { RefIndexHistory } from './ref-index-history.js';
import { type EvaluationScope, NO_CONSULTED_REFS, type PersistedEvaluations } from './persisted-evaluations.js';

/** A change dropped while evaluating one object of a repository. */
export interface CobRejectionReport extends ChangeRejection {
  readonly rid: string;
  /** The COB type name, e.g. `xyz.radicle.patch`. */
  readonly typeName: string;
  /** The object id. */
  readonly object: Oid;
}

/** Options of a {@link CobStore}. */
export interface CobStoreOptions {
  /** Decoded manifests, shared by the stores of every repository (default: one of its own). */
  readonly manifests?: ManifestCache;
  /**
   * Told of each dropped change when an object is evaluated (again after its tips move: dedupe
   * by object if you log).
   */
  readonly onRejected?: (report: CobRejectionReport) => void;
  /** Told after each object evaluation (not of answers reused from the cache). */
  readonly onEvaluated?: (evaluation: CobEvaluation) => void;
  /** Told when views were let go after being persisted (the store weighs less: {@link CobStore.estimatedBytes}). */
  readonly onViewsLetGo?: () => void;
  /**
   * Where issue and patch evaluations outlive the process (e.g. {@link openSqliteEvaluations}):
   * read when an object is first needed, used only when its tips and consulted refs are
   * unchanged, written after evaluations.
   */
  readonly persisted?: PersistedEvaluations;
}

/** One evaluation of an object from its changes, for counters and timings. */
export interface CobEvaluation {
  readonly rid: string;
  /** The COB type name, e.g. `xyz.radicle.issue`. */
  readonly typeName: string;
  /** Changes loaded and folded. */
  readonly changes: number;
  /** Time from loading the changes to the evaluated value, in ms. */
  readonly durationMs: number;
}

/** One object to evaluate, at the tips the ref index gives it. */
interface EvaluationInput<V> {
  readonly kind: CobKind<V>;
  readonly id: Oid;
  readonly repo: CobRepository;
  readonly index: CobRefIndex;
  readonly tips: readonly Oid[];
  /** `tips` joined with commas: the key of the cached entry. */
  readonly tipsKey: string;
}

/** Per-repository COB caches; create one per repository and reuse it across requests. */
export class CobStore {
  readonly kinds: CobKinds;
  private readonly manifests: ManifestCache;
  private readonly facts: FactCaches = newFactCaches();
  private readonly objects = new Map<string, CachedObject<unknown>>();
  /** Entries of `objects` holding a view (not let go, not invalid): what the store weighs most. */
  private heldViews = 0;
  private readonly pending = new Map<string, Promise<CachedObject<unknown>>>();
  /**
   * Per-kind memo of derived listings, keyed by the exact cached objects they came from and
   * remembering the ref index they were last confirmed against.
   */
  readonly listings = new Map<string, ListingMemo>();
  /**
   * Per kind, its objects newest first as of one ref index, for pages evaluated ahead of the
   * whole listing (dropped once a whole listing is kept).
   */
  private readonly orders = new Map<string, { readonly index: CobRefIndex; readonly order: Promise<readonly RootTime[]> }>();
  /** Root commit times already asked of git (commits never change). */
  private readonly rootTimes = new Map<Oid, number>();
  private lastIndex: { readonly entries: readonly RefEntry[]; readonly index: CobRefIndex } | null = null;
  /** How the last indexes followed one another, for listings kept for an earlier one. */
  private readonly indexHistory = new RefIndexHistory();
  /** Persisted entries of a scope read in bulk and not taken into `objects` yet. */
  private readonly persistedByScope = new Map<EvaluationScope, Map<Oid, CachedObject<unknown>>>();
  /** Fresh evaluations of a type not written yet (written together, off the request path). */
  private readonly unsaved = new Map<EvaluationScope, CachedObject<unknown>[]>();
  /** One scope object per repository and type, so scopes can key maps. */
  private readonly scopes = new Map<string, Map<string, EvaluationScope>>();
  private flushScheduled = false;

  constructor(
    private readonly flavour: Flavour,
    private readonly options: CobStoreOptions = {},
  ) {
    this.kinds = cobKinds(flavour);
    this.manifests = options.manifests ?? new ManifestCache();
  }

  /**
   * Lists the repository's refs once and returns a view of its COBs at that moment.
   * @param repo - the repository (may be a fresh handle each request)
   */
  async snapshot(repo: CobRepository): Promise<CobSnapshot> {
    const entries = await repo.git.listRefs(COB_REF_PREFIX);
    // The git layer answers the very same listing while no ref moved: so is the index, and
    // listings derived from it are reused without visiting each object.
    // After a change, the last index updated by the refs that differ (usually one or two).
    if (this.lastIndex?.entries !== entries) {
      const { index, changes } = updateCobRefIndex(entries, this.lastIndex ?? undefined);
      this.indexHistory.record(this.lastIndex?.index, index, changes);
      this.lastIndex = { entries, index };
    }
    return new CobSnapshot(this, repo, this.lastIndex.index);
  }

  /**
   * The refs and objects that changed from an earlier index of this store to a later one;
   * undefined when the store cannot tell (then every object is looked up again).
   * @internal used by {@link CobSnapshot}
   */
  changesBetween(from: CobRefIndex, to: CobRefIndex): CobRefChanges | undefined {
    return this.indexHistory.changesBetween(from, to);
  }

  /**
   * Returns an object's evaluation, reusing the cache when its tips and dependencies are unchanged.
   * @internal used by {@link CobSnapshot}
   */
  async object<V>(args: { kind: CobKind<V>; id: Oid; repo: CobRepository; index: CobRefIndex }): Promise<CachedObject<V>> {
    const { kind, id, index } = args;
    const tips = index.objects.get(kind.typeName)?.get(id) ?? [];
    const tipsKey = tips.join(',');
    const key = objectKey(kind.typeName, id);
    const inMemory = this.objects.get(key);
    const cached = inMemory ?? this.takePersisted(this.scope(kind, args.repo), id);
    if (cached !== undefined && cached.tipsKey === tipsKey && depsHold(cached.deps, index)) {
      // A view read back from the persisted place is handed out, not kept: it can be read again.
      if (cached !== inMemory) this.keep(key, holdsView(cached) ? { ...cached, value: undefined } : cached);
      return cached as CachedObject<V>;
    }
    const result = await this.evaluateOnce({ ...args, tips, tipsKey });
    this.keep(key, result);
    return result;
  }

  /**
   * The view of an entry {@link object} returned for `index`: held in memory, read back from
   * the persisted place once let go, or (when the place lost it) evaluated again.
   * @internal used by {@link CobSnapshot}
   */
  async valueOf<V>(args: { kind: CobKind<V>; entry: CachedObject<V>; repo: CobRepository; index: CobRefIndex }): Promise<V | null> {
    const { kind, entry, repo, index } = args;
    if (entry.value !== undefined) return entry.value;
    const stored = this.options.persisted?.read(this.scope(kind, repo), entry.id);
    if (stored != null && stored.value !== undefined && stored.tipsKey === entry.tipsKey && depsHold(stored.deps, index)) return stored.value as V | null;
    const tips = index.objects.get(kind.typeName)?.get(entry.id) ?? [];
    return (await this.evaluateOnce({ kind, id: entry.id, repo, index, tips, tipsKey: tips.join(',') })).value ?? null;
  }

  /** One evaluation at a time per object and tips: requests asking at once share it. */
  private evaluateOnce<V>(args: EvaluationInput<V>): Promise<CachedObject<V>> {
    const pendingKey = `${objectKey(args.kind.typeName, args.id)}@${args.tipsKey}`;
    let pending = this.pending.get(pendingKey);
    if (pending === undefined) {
      pending = this.evaluate(args).finally(() => this.pending.delete(pendingKey));
      this.pending.set(pendingKey, pending);
    }
    return pending as Promise<CachedObject<V>>;
  }

  /** Puts an entry in `objects`, counting the views held. */
  private keep(key: string, entry: CachedObject<unknown>): void {
    const before = this.objects.get(key);
    if (before === entry) return;
    if (before !== undefined && holdsView(before)) this.heldViews--;
    if (holdsView(entry)) this.heldViews++;
    this.objects.set(key, entry);
  }

  /** Lets a persisted entry's view go (it is read back when a page shows it). */
  private letGo(scope: EvaluationScope, entry: CachedObject<unknown>): void {
    if (!holdsView(entry)) return;
    if (this.objects.get(objectKey(scope.typeName, entry.id)) === entry) this.heldViews--;
    entry.value = undefined;
  }

  /**
   * The kind's objects as of `index`, newest first by root change time, ties by id (the
   * order of listings). One git process for the root times not known yet; ids that name no
   * commit are left out (such an object has no root: it is invalid).
   * @internal used by {@link CobSnapshot}
   */
  newestFirst(kind: CobKind<unknown>, repo: CobRepository, index: CobRefIndex): Promise<readonly RootTime[]> {
    const memo = this.orders.get(kind.typeName);
    if (memo?.index === index) return memo.order;
    const order = this.sortByRootTime([...(index.objects.get(kind.typeName)?.keys() ?? [])], repo);
    this.orders.set(kind.typeName, { index, order });
    order.catch(() => {
      if (this.orders.get(kind.typeName)?.order === order) this.orders.delete(kind.typeName);
    });
    return order;
  }

  /** @internal used by {@link CobSnapshot} once a whole listing is kept */
  forgetOrder(kind: CobKind<unknown>): void {
    this.orders.delete(kind.typeName);
  }

  private async sortByRootTime(ids: readonly Oid[], repo: CobRepository): Promise<readonly RootTime[]> {
    const unknown = ids.filter((id) => !this.rootTimes.has(id));
    if (unknown.length > 0) for (const [id, time] of await repo.git.commitTimesOf(unknown)) this.rootTimes.set(id, time);
    const order: RootTime[] = [];
    for (const id of ids) {
      const time = this.rootTimes.get(id);
      if (time !== undefined) order.push({ id, time });
    }
    return order.sort((a, b) => compareNewestFirst(a.time, a.id, b.time, b.id));
  }

  /**
   * What the store holds, estimated from counts (per-ref and per-object costs measured on the
   * benchmark's big tracker): for callers that bound
   * many stores together. Refs weigh from the last listing, objects from the entries held
   * (evaluated or persisted), and their views from the views not let go.
   */
  estimatedBytes(): number {
    let objects = this.objects.size;
    for (const bulk of this.persistedByScope.values()) objects += bulk.size;
    return (
      COB_STORE_BASE_BYTES +
      (this.lastIndex?.index.refs.size ?? 0) * COB_STORE_BYTES_PER_REF +
      objects * COB_STORE_BYTES_PER_LISTED_OBJECT +
      this.heldViews * COB_STORE_BYTES_PER_VIEW
    );
  }

  /** Views held in memory (not let go after persisting): for diagnostics and tests. */
  get viewsHeld(): number {
    return this.heldViews;
  }

  /**
   * True when the last listing has no object of the store's kinds and nothing is held: such a
   * store is as cheap to build again as to keep (most repositories of a node have no issue,
   * patch or job).
   */
  isEmpty(): boolean {
    if (this.objects.size > 0 || this.pending.size > 0 || this.unsaved.size > 0) return false;
    const listed = this.lastIndex?.index.objects;
    return listed === undefined || [this.kinds.issue, this.kinds.patch, this.kinds.job].every((kind) => (listed.get(kind.typeName)?.size ?? 0) === 0);
  }

  /** Writes every evaluation not persisted yet, now (e.g. before the persisted store closes). */
  savePending(): void {
    for (const [scope, list] of this.unsaved) this.save(scope, list);
    this.unsaved.clear();
  }

  /**
   * Reads every persisted entry of a kind at once (one query instead of one per object), for
   * a listing about to visit them all.
   * @internal used by {@link CobSnapshot}
   */
  preloadPersisted(kind: CobKind<unknown>, repo: CobRepository): void {
    const persisted = this.options.persisted;
    const scope = this.scope(kind, repo);
    if (persisted === undefined || !isPersistable(kind.typeName) || this.persistedByScope.has(scope)) return;
    this.persistedByScope.set(scope, new Map(persisted.readAll(scope)));
  }

  /** The persisted entry of an object not in memory yet (each is taken once, then kept in memory). */
  private takePersisted(scope: EvaluationScope, id: Oid): CachedObject<unknown> | undefined {
    const persisted = this.options.persisted;
    if (persisted === undefined || !isPersistable(scope.typeName)) return undefined;
    const bulk = this.persistedByScope.get(scope);
    if (bulk === undefined) return persisted.read(scope, id) ?? undefined;
    const entry = bulk.get(id);
    bulk.delete(id);
    return entry;
  }

  private remember(scope: EvaluationScope, entry: CachedObject<unknown>): void {
    if (this.options.persisted === undefined || !isPersistable(scope.typeName)) return;
    const list = this.unsaved.get(scope) ?? [];
    list.push(entry);
    this.unsaved.set(scope, list);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    // Written once no evaluation is under way, in bounded transactions, so a first listing
    // of thousands of objects is not delayed by its own writes (interleaved, they made the
    // first listing of 10,000 issues seconds slower on the loaded bench machine).
    if (this.pending.size > 0) {
      setTimeout(() => this.flush(), WRITE_DELAY_MS).unref();
      return;
    }
    const [scope, list] = this.unsaved.entries().next().value ?? [];
    if (scope === undefined || list === undefined) {
      this.flushScheduled = false;
      return;
    }
    const batch = list.splice(0, WRITE_BATCH);
    if (list.length === 0) this.unsaved.delete(scope);
    this.save(scope, batch);
    setImmediate(() => this.flush());
  }

  /** Writes entries to the persisted place and, once there, lets their views go. */
  private save(scope: EvaluationScope, entries: readonly CachedObject<unknown>[]): void {
    if (this.options.persisted?.write(scope, entries) !== true) return;
    for (const entry of entries) this.letGo(scope, entry);
    this.options.onViewsLetGo?.();
  }

  private scope(kind: CobKind<unknown>, repo: CobRepository): EvaluationScope {
    let scopes = this.scopes.get(repo.rid);
    if (scopes === undefined) {
      scopes = new Map();
      this.scopes.set(repo.rid, scopes);
    }
    let scope = scopes.get(kind.typeName);
    if (scope === undefined) {
      scope = { rid: repo.rid, typeName: kind.typeName, flavour: this.flavour };
      scopes.set(kind.typeName, scope);
    }
    return scope;
  }

  private async evaluate<V>(args: EvaluationInput<V>): Promise<CachedObject<V>> {
    const { kind, id, repo, index, tips, tipsKey } = args;
    const started = performance.now();
    // Loaded changes are not kept: an object whose tips moved re-reads its few changes cheaply
    // through cat-file, while keeping every change of a big tracker costs much memory.
    const changes = await loadObjectChanges({ git: repo.git, tips, typeName: kind.typeName, cache: new Map(), manifests: this.manifests });
    const { env, deps } = await prepareFoldEnv({
      git: repo.git,
      changes,
      refs: async (name) => index.refs.get(name) ?? null,
      caches: this.facts,
      projectPayloadId: this.kinds.projectPayloadId,
    });
    const listener = this.options.onRejected;
    const onReject = (rejection: ChangeRejection): void => listener?.({ ...rejection, rid: repo.rid, typeName: kind.typeName, object: id });
    const value = await kind.evaluate({ id, changes, env, repo, onReject });
    this.options.onEvaluated?.({ rid: repo.rid, typeName: kind.typeName, changes: changes.length, durationMs: performance.now() - started });
    const listed = value === null ? null : kind.listingFacts(value);
    const entry: CachedObject<V> = { id, tipsKey, deps: deps.size === 0 ? NO_CONSULTED_REFS : deps, listed, value };
    this.remember(this.scope(kind, repo), entry);
    return entry;
  }
}

// Jobs are left out: a job's evaluation depends on whether its commit is present, a fact no
// ref records, which may turn true later (the in-memory entry is rebuilt on restart).
function isPersistable(typeName: string): boolean {
  return typeName !== JOB_TYPE_NAME;
}

/** Estimated bytes of an empty store (its maps and fact caches). */
const COB_STORE_BASE_BYTES = 4096;
/** Estimated bytes per ref of the last listing (name, id, index entries). */
const COB_STORE_BYTES_PER_REF = 400;
/** Estimated bytes per object held without its view (id, tips, consulted refs, listing facts, listing slots). */
export const COB_STORE_BYTES_PER_LISTED_OBJECT = 400;
/** Estimated bytes of a view held in memory on top of its entry. */
const COB_STORE_BYTES_PER_VIEW = 1200;
/** Estimated bytes per evaluated object whose view is held. */
export const COB_STORE_BYTES_PER_OBJECT = COB_STORE_BYTES_PER_LISTED_OBJECT + COB_STORE_BYTES_PER_VIEW;

/** Entries per write transaction: each blocks the event loop for a few milliseconds. */
const WRITE_BATCH = 500;
/** How long writes wait behind evaluations under way before looking again. */
const WRITE_DELAY_MS = 50;

/** An object's key in a store's `objects`. */
function objectKey(typeName: string, id: Oid): string {
  return `${typeName}/${id}`;
}

function holdsView(entry: CachedObject<unknown>): boolean {
  return entry.value !== undefined && entry.value !== null;
}

function depsHold(deps: ReadonlyMap<string, Oid | null>, index: CobRefIndex): boolean {
  for (const [name, oid] of deps) if ((index.refs.get(name) ?? null) !== oid) return false;
  return true;
}
