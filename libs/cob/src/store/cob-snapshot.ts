/**
 * The COBs of a repository as of one ref listing. Listings are derived once per distinct set
 * of cached objects, so a repository with thousands of issues lists quickly after the first
 * request and re-evaluates only objects whose tips moved.
 */
import { InvalidDataError } from '@forge-httpd/identity';
import type { Oid } from '@forge-httpd/storage';
import type { Issue } from '../issue/issue-view.js';
import type { Job } from '../job/job-view.js';
import type { Patch } from '../patch/patch-view.js';
import type { CobRefChanges, CobRefIndex } from '../read/cob-ref-index.js';
import type { CachedObject, ListingMemo, RootTime } from './cached-object.js';
import type { CobKind, CobKinds, CobRepository } from './cob-kinds.js';
import type { ListingFacts } from './persisted-evaluations.js';
import { compareNewestFirst } from './listing-order.js';
import { firstIndexAfter, withChanges } from './sorted-changes.js';

/** Issue list filter (docs/radicle-httpd.md §5.20). */
export type IssueStatusFilter = 'open' | 'closed' | 'all';
/** Patch list filter (docs/radicle-httpd.md §5.22). */
export type PatchStatusFilter = 'open' | 'draft' | 'archived' | 'merged' | 'all';

/** Issue and patch counts for repository info (`payloads[…].meta`). */
export interface CobCounts {
  readonly issues: { readonly open: number; readonly closed: number };
  readonly patches: { readonly open: number; readonly draft: number; readonly archived: number; readonly merged: number };
}

const CONCURRENCY = 16;
/** Objects evaluated at once for a page while the whole listing is not in memory. */
const PAGE_BATCH_MAX = 64;
/**
 * A page that needs more objects than this (a deep page, or a status few objects have) is cut
 * from the whole listing, which is then kept, instead of evaluating newest first: by then
 * most of the work is done either way, and the next such page is answered from memory.
 */
const PAGE_AHEAD_LIMIT = 1000;

/** Part of a listing: `count` items after skipping `start`. */
export interface ListingRange {
  readonly start: number;
  readonly count: number;
}

/** How {@link CobSnapshot.prepareListings} shares the process with other work. */
export interface PrepareOptions {
  /** Objects evaluated at once (default 16, as a listing does). */
  readonly concurrency?: number;
  /** Awaited before each object is looked up: hold it back to let other work go first. */
  readonly pace?: () => Promise<void>;
  /** Stops before the next object once aborted (what was evaluated is kept). */
  readonly signal?: AbortSignal;
}

/** What {@link CobSnapshot.prepareListings} found. */
export interface PreparedListings {
  /** Issue and patch objects of the snapshot (each evaluated now or found current). */
  readonly objects: number;
  /** False when it was aborted before the end. */
  readonly complete: boolean;
}

/**
 * What a snapshot asks of the store that made it (CobStore): evaluations by tips, listings
 * kept across snapshots, and how the ref index changed between two listings.
 */
interface SnapshotStore {
  readonly kinds: CobKinds;
  readonly listings: Map<string, ListingMemo>;
  object<V>(args: { kind: CobKind<V>; id: Oid; repo: CobRepository; index: CobRefIndex }): Promise<CachedObject<V>>;
  valueOf<V>(args: { kind: CobKind<V>; entry: CachedObject<V>; repo: CobRepository; index: CobRefIndex }): Promise<V | null>;
  newestFirst(kind: CobKind<unknown>, repo: CobRepository, index: CobRefIndex): Promise<readonly RootTime[]>;
  changesBetween(from: CobRefIndex, to: CobRefIndex): CobRefChanges | undefined;
  forgetOrder(kind: CobKind<unknown>): void;
  preloadPersisted(kind: CobKind<unknown>, repo: CobRepository): void;
}

/** A consistent view of a repository's COBs (one `for-each-ref`). */
export class CobSnapshot {
  constructor(
    private readonly store: SnapshotStore,
    private readonly repo: CobRepository,
    private readonly index: CobRefIndex,
  ) {}

  /** The last {@link staleObjects} answer, for the memo it was worked out for. */
  private stale: { readonly memo: ListingMemo; readonly objects: ReadonlySet<Oid> | undefined } | undefined;

  /** Valid issues with the given status, newest first (ties by id). */
  issues(status: IssueStatusFilter = 'all'): Promise<readonly Issue[]> {
    return this.listingViews(this.store.kinds.issue, status);
  }

  /** Valid patches with the given status, newest first (ties by id). */
  patches(status: PatchStatusFilter = 'all'): Promise<readonly Patch[]> {
    return this.listingViews(this.store.kinds.patch, status);
  }

  /**
   * One page of {@link issues}. While the whole listing is not in memory (a first start, or
   * objects changed since), only as many objects are evaluated as the page needs, taken
   * newest first by their root change's time, which is the listing's order.
   */
  issuePage(status: IssueStatusFilter, range: ListingRange): Promise<readonly Issue[]> {
    return this.page(this.store.kinds.issue, status, range);
  }

  /** One page of {@link patches}, as {@link issuePage} is of issues. */
  patchPage(status: PatchStatusFilter, range: ListingRange): Promise<readonly Patch[]> {
    return this.page(this.store.kinds.patch, status, range);
  }

  /** One issue, or null when absent or invalid. */
  async issue(id: Oid): Promise<Issue | null> {
    return this.one(this.store.kinds.issue, id);
  }

  /** One patch, or null when absent or invalid. */
  async patch(id: Oid): Promise<Patch | null> {
    return this.one(this.store.kinds.patch, id);
  }

  /** Jobs whose commit is `commit`, sorted by job id (docs/radicle-httpd.md §5.19). */
  async jobs(commit: Oid): Promise<readonly Job[]> {
    const all = await this.viewsOf(this.store.kinds.job, await this.evaluateAll(this.store.kinds.job));
    return all.filter((job) => job.commit === commit);
  }

  /** Issue and patch counts by state (tallied once per listing: repository pages ask on every request). */
  async counts(): Promise<CobCounts> {
    const [issues, patches] = await Promise.all([this.statusCounts(this.store.kinds.issue), this.statusCounts(this.store.kinds.patch)]);
    const of = (counts: ReadonlyMap<string, number>, status: string): number => counts.get(status) ?? 0;
    return {
      issues: { open: of(issues, 'open'), closed: of(issues, 'closed') },
      patches: { open: of(patches, 'open'), draft: of(patches, 'draft'), archived: of(patches, 'archived'), merged: of(patches, 'merged') },
    };
  }

  /** Issue and patch objects the snapshot lists (valid or not: found without evaluating). */
  listingObjects(): number {
    const count = (kind: CobKind<unknown>): number => this.index.objects.get(kind.typeName)?.size ?? 0;
    return count(this.store.kinds.issue) + count(this.store.kinds.patch);
  }

  /**
   * Evaluates every issue and patch ahead of a request (e.g. in the background after start-up),
   * so the next listing, count or single object is answered from memory. Gentler than a listing
   * when asked: fewer objects at once, and each waits for `pace`.
   */
  async prepareListings(options: PrepareOptions = {}): Promise<PreparedListings> {
    let objects = 0;
    for (const kind of [this.store.kinds.issue, this.store.kinds.patch] as CobKind<unknown>[]) {
      const memo = this.store.listings.get(kind.typeName);
      if (memo !== undefined && (memo.index === this.index || this.staleObjects(kind, memo) !== undefined)) {
        objects += (await this.currentListing(kind)).entries.length;
        continue;
      }
      const entries = await this.evaluateAll(kind, options);
      objects += entries.length;
      // Only a whole listing is kept: an aborted pass leaves the next request to finish it.
      if (options.signal?.aborted === true) return { objects, complete: false };
      this.adoptListing(kind, memo, entries);
    }
    // The listings are current now: the counts are derived from memory.
    await this.counts();
    return { objects, complete: true };
  }

  /** Valid objects of a kind by status, kept with the kind's listing. */
  private async statusCounts(kind: CobKind<unknown>): Promise<ReadonlyMap<string, number>> {
    const memo = await this.currentListing(kind);
    let counts = memo.derived.get(COUNTS) as Map<string, number> | undefined;
    if (counts === undefined) {
      counts = new Map();
      for (const { listed } of memo.entries) {
        if (listed !== null) counts.set(listed.status, (counts.get(listed.status) ?? 0) + 1);
      }
      memo.derived.set(COUNTS, counts);
    }
    return counts;
  }

  private async page<V>(kind: CobKind<V>, status: string, range: ListingRange): Promise<readonly V[]> {
    const end = range.start + range.count;
    const memo = this.store.listings.get(kind.typeName);
    if (memo?.index !== this.index && end <= PAGE_AHEAD_LIMIT) {
      // A listing a few objects behind this index is brought forward (see currentListing).
      const stale = memo === undefined ? undefined : this.staleObjects(kind, memo);
      if (stale === undefined || stale.size > PAGE_BATCH_MAX) {
        const page = await this.pageNewestFirst(kind, range, hasStatus(status));
        if (page !== null) return this.viewsOf(kind, page);
      }
    }
    return this.viewsOf(kind, (await this.listing(kind, status)).slice(range.start, end));
  }

  /**
   * Evaluates objects newest first until the page is full. Null when the whole listing
   * should answer: the page needs more than {@link PAGE_AHEAD_LIMIT} objects, or the order
   * cannot be trusted (git could not list the root times, or an evaluated object's time is
   * not its root commit's).
   */
  private async pageNewestFirst<V>(kind: CobKind<V>, range: ListingRange, matches: (facts: ListingFacts) => boolean): Promise<CachedObject<V>[] | null> {
    const order = await this.store.newestFirst(kind, this.repo, this.index).catch(() => null);
    if (order === null) return null;
    const end = range.start + range.count;
    const found: CachedObject<V>[] = [];
    let next = 0;
    while (found.length < end && next < order.length) {
      if (next >= PAGE_AHEAD_LIMIT) return null;
      const size = Math.min(PAGE_BATCH_MAX, Math.max(CONCURRENCY, end - found.length));
      const batch = order.slice(next, next + size);
      next += batch.length;
      const entries = await Promise.all(batch.map(({ id }) => this.store.object({ kind, id, repo: this.repo, index: this.index })));
      for (const [i, entry] of entries.entries()) {
        const { listed } = entry;
        if (listed === null) continue;
        if (listed.timestamp !== batch[i]?.time) return null;
        if (matches(listed)) found.push(entry);
      }
    }
    return found.slice(range.start, end);
  }

  private async one<V>(kind: CobKind<V>, id: Oid): Promise<V | null> {
    if (!this.index.objects.get(kind.typeName)?.has(id)) return null;
    const entry = await this.store.object({ kind, id, repo: this.repo, index: this.index });
    const view = await this.store.valueOf({ kind, entry, repo: this.repo, index: this.index });
    return view === null ? null : ((await this.present(kind, [view]))[0] ?? null);
  }

  /** Views as shown now (see {@link CobKind.present}). */
  private present<V>(kind: CobKind<V>, views: V[]): V[] | Promise<V[]> {
    return kind.present === undefined ? views : kind.present(views, this.repo);
  }

  /** The views of entries as shown now (read back where they were let go), leaving out invalid objects. */
  private async viewsOf<V>(kind: CobKind<V>, entries: readonly CachedObject<V>[]): Promise<V[]> {
    const views: Array<V | null> = await Promise.all(entries.map((entry) => this.store.valueOf({ kind, entry, repo: this.repo, index: this.index })));
    return this.present(
      kind,
      views.filter((view): view is V => view !== null),
    );
  }

  /** The kind's valid objects with `status`, as views (see {@link listing}). */
  private async listingViews<V>(kind: CobKind<V>, status: string): Promise<readonly V[]> {
    return this.viewsOf(kind, await this.listing(kind, status));
  }

  /** The kind's valid objects with `status`, newest first (ties by id), kept with its listing. */
  private async listing<V>(kind: CobKind<V>, status: string): Promise<readonly Listed<V>[]> {
    const memo = await this.currentListing(kind);
    let sorted = memo.derived.get(SORTED) as readonly Listed<V>[] | undefined;
    if (sorted === undefined) {
      sorted = (memo.entries as readonly CachedObject<V>[]).filter((entry): entry is Listed<V> => entry.listed !== null).sort(byNewestFirst);
      memo.derived.set(SORTED, sorted);
    }
    const key = `${STATUS_KEY}${status}`;
    let result = memo.derived.get(key) as readonly Listed<V>[] | undefined;
    if (result === undefined) {
      const matches = hasStatus(status);
      result = sorted.filter((entry) => matches(entry.listed));
      memo.derived.set(key, result);
    }
    return result;
  }

  /**
   * The kind's memo, current for this snapshot's index: confirmed without visiting any object
   * when it was derived from this very index; brought forward by its stale objects when the
   * store knows how its index changed since the memo's; else each object is looked up (and
   * re-evaluated when its tips moved) and the memo is kept only if every entry is the same.
   */
  private async currentListing<V>(kind: CobKind<V>): Promise<ListingMemo> {
    const memo = this.store.listings.get(kind.typeName);
    if (memo?.index === this.index) return memo;
    const stale = memo === undefined ? undefined : this.staleObjects(kind, memo);
    if (memo !== undefined && stale !== undefined) {
      try {
        return await this.updateListing(kind, memo, stale);
      } catch (error) {
        if (!(error instanceof InvalidDataError && error.what === 'sorted changes')) throw error;
        // The memo does not hold what its entries say (a fault in this bookkeeping): the
        // listing is worked out whole and replaces it, instead of failing every page.
        return this.adoptListing(kind, undefined, await this.evaluateAll(kind));
      }
    }
    return this.adoptListing(kind, memo, await this.evaluateAll(kind));
  }

  /**
   * The objects to look up again to bring `memo` to this snapshot's index: those whose COB refs
   * changed (added, moved or gone) and those whose evaluation consulted a changed ref (a
   * merge's branch). Undefined when the store cannot tell what changed since the memo's index.
   */
  private staleObjects(kind: CobKind<unknown>, memo: ListingMemo): ReadonlySet<Oid> | undefined {
    // A page asks before its listing does: worked out once per snapshot and memo.
    if (this.stale?.memo === memo) return this.stale.objects;
    const changes = this.store.changesBetween(memo.index, this.index);
    let objects: Set<Oid> | undefined;
    if (changes !== undefined) {
      objects = new Set(changes.objects.get(kind.typeName) ?? []);
      if (changes.refs.size > 0) for (const entry of consultingEntries(memo)) if (consultsAny(entry.deps, changes.refs)) objects.add(entry.id);
    }
    this.stale = { memo, objects };
    return objects;
  }

  /**
   * `memo` brought to this snapshot's index: only its `stale` objects are looked up (the others'
   * tips and consulted refs are unchanged), and its counts and sorted order are updated by the
   * entries that differ instead of being worked out again.
   */
  private async updateListing<V>(kind: CobKind<V>, memo: ListingMemo, stale: ReadonlySet<Oid>): Promise<ListingMemo> {
    const present = this.index.objects.get(kind.typeName);
    const ids = [...stale].filter((id) => present?.has(id) === true).sort();
    const found = await this.evaluateIds(kind, ids);
    const latest = this.store.listings.get(kind.typeName);
    if (latest?.index === this.index) return latest;
    const { removed, added } = differingEntries(memo.entries, stale, ids, found);
    const entries = withChanges(memo.entries, removed, added, byId);
    // Another request replaced the memo meanwhile: these entries are current all the same.
    if (latest !== memo) return this.adoptListing(kind, latest, entries);
    if (removed.length === 0 && added.length === 0) {
      memo.index = this.index;
      return memo;
    }
    this.store.forgetOrder(kind);
    const derived = new Map<string, unknown>();
    for (const [key, value] of memo.derived) {
      const carried = carriedForward(key, value, removed, added);
      if (carried !== undefined) derived.set(key, carried);
    }
    const next: ListingMemo = { entries, index: this.index, derived };
    this.store.listings.set(kind.typeName, next);
    return next;
  }

  /** Keeps the kind's memo when `entries` are the very ones it came from, else a fresh one. */
  private adoptListing<V>(kind: CobKind<V>, memo: ListingMemo | undefined, entries: readonly CachedObject<V>[]): ListingMemo {
    // Pages come from the listing from now on: its newest-first order is not needed.
    this.store.forgetOrder(kind);
    if (memo !== undefined && sameEntries(memo.entries, entries)) {
      memo.index = this.index;
      return memo;
    }
    const fresh: ListingMemo = { entries, index: this.index, derived: new Map() };
    this.store.listings.set(kind.typeName, fresh);
    return fresh;
  }

  /**
   * Evaluates every object of a kind (cached ones cost a map lookup), ordered by id; when
   * aborted, the objects not reached are left out of the result.
   */
  private async evaluateAll<V>(kind: CobKind<V>, options: PrepareOptions = {}): Promise<CachedObject<V>[]> {
    const ids = [...(this.index.objects.get(kind.typeName)?.keys() ?? [])].sort();
    if (ids.length > 1) this.store.preloadPersisted(kind, this.repo);
    return this.evaluateIds(kind, ids, options);
  }

  /** Looks up the objects `ids` (evaluating those not current), in their order; see {@link evaluateAll}. */
  private async evaluateIds<V>(kind: CobKind<V>, ids: readonly Oid[], options: PrepareOptions = {}): Promise<CachedObject<V>[]> {
    const { pace, signal } = options;
    const results: CachedObject<V>[] = new Array<CachedObject<V>>(ids.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < ids.length) {
        if (pace !== undefined) await pace();
        if (signal?.aborted === true) return;
        const i = next++;
        if (i >= ids.length) return;
        results[i] = await this.store.object({ kind, id: ids[i] as Oid, repo: this.repo, index: this.index });
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.concurrency ?? CONCURRENCY, ids.length) }, worker));
    return signal?.aborted === true ? results.filter((entry) => entry !== undefined) : results;
  }
}

/** An entry a listing shows: a valid object of a listed kind. */
type Listed<V> = CachedObject<V> & { readonly listed: ListingFacts };

/** A status filter of a listing (`all` lets every object through). */
function hasStatus(status: string): (facts: ListingFacts) => boolean {
  return (facts) => status === 'all' || facts.status === status;
}

/** True when `deps` names one of `refs`. */
function consultsAny(deps: ReadonlyMap<string, Oid | null>, refs: ReadonlySet<string>): boolean {
  for (const name of deps.keys()) if (refs.has(name)) return true;
  return false;
}

/**
 * How a listing's entries (ordered by id) differ once its `stale` ones are looked up again:
 * `ids` are the stale ones still present, ordered by id, and `found` their entries now; stale
 * ones not among them are gone. An entry looked up again and found the same is neither.
 */
function differingEntries(
  entries: readonly CachedObject<unknown>[],
  stale: ReadonlySet<Oid>,
  ids: readonly Oid[],
  found: readonly CachedObject<unknown>[],
): { removed: CachedObject<unknown>[]; added: CachedObject<unknown>[] } {
  const now = new Map(ids.map((id, i) => [id, found[i] as CachedObject<unknown>]));
  const removed: CachedObject<unknown>[] = [];
  const added: CachedObject<unknown>[] = [];
  for (const id of stale) {
    const before = entryWithId(entries, id);
    const after = now.get(id);
    if (before === after) continue;
    if (before !== undefined) removed.push(before);
    if (after !== undefined) added.push(after);
  }
  return { removed, added };
}

/** The entry with `id` of entries ordered by id. */
function entryWithId(entries: readonly CachedObject<unknown>[], id: Oid): CachedObject<unknown> | undefined {
  const entry = entries[firstIndexAfter(entries, (other) => other.id < id)];
  return entry?.id === id ? entry : undefined;
}

/** The entries of a memo whose evaluation consulted refs other than their own, ordered by id (kept with the memo). */
function consultingEntries(memo: ListingMemo): readonly CachedObject<unknown>[] {
  let consulting = memo.derived.get(CONSULTING) as readonly CachedObject<unknown>[] | undefined;
  if (consulting === undefined) {
    consulting = memo.entries.filter(consults);
    memo.derived.set(CONSULTING, consulting);
  }
  return consulting;
}

/** The key of {@link consultingEntries} in a memo's derived values. */
const CONSULTING = 'consulting';

function consults(entry: CachedObject<unknown>): boolean {
  return entry.deps.size > 0;
}

/**
 * A value derived from a memo's entries (by {@link CobSnapshot}'s listing, counts and
 * {@link consultingEntries}), brought forward by the entries that left and came in; undefined
 * for one worked out again when next asked.
 */
function carriedForward(key: string, value: unknown, removed: readonly CachedObject<unknown>[], added: readonly CachedObject<unknown>[]): unknown {
  const changed = <T>(list: readonly T[], keep: (entry: CachedObject<unknown>) => boolean, compare: (a: T, b: T) => number): T[] =>
    withChanges(list, removed.filter(keep) as unknown as T[], added.filter(keep) as unknown as T[], compare);
  if (key === COUNTS) return updatedCounts(value as ReadonlyMap<string, number>, removed, added);
  if (key === CONSULTING) return changed(value as readonly CachedObject<unknown>[], consults, byId);
  if (key === SORTED) return changed(value as readonly Listed<unknown>[], isListed, byNewestFirst);
  if (key.startsWith(STATUS_KEY)) {
    const matches = hasStatus(key.slice(STATUS_KEY.length));
    return changed(value as readonly Listed<unknown>[], (entry) => isListed(entry) && matches(entry.listed), byNewestFirst);
  }
  return undefined;
}

/** Keys of a memo's derived values: its status counts, its listing newest first, and (with a status after it) that listing filtered. */
const COUNTS = 'counts';
const SORTED = 'sorted';
const STATUS_KEY = 'status:';

/** Status counts (see statusCounts) without the `removed` entries and with the `added` ones. */
function updatedCounts(
  counts: ReadonlyMap<string, number>,
  removed: readonly CachedObject<unknown>[],
  added: readonly CachedObject<unknown>[],
): Map<string, number> {
  const next = new Map(counts);
  for (const { listed } of removed) if (listed !== null) next.set(listed.status, (next.get(listed.status) ?? 0) - 1);
  for (const { listed } of added) if (listed !== null) next.set(listed.status, (next.get(listed.status) ?? 0) + 1);
  return next;
}

/** The order of entries in a memo: by id, as {@link CobSnapshot.evaluateAll} gives them. */
function byId(a: CachedObject<unknown>, b: CachedObject<unknown>): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function isListed(entry: CachedObject<unknown>): entry is Listed<unknown> {
  return entry.listed !== null;
}

function byNewestFirst(a: Listed<unknown>, b: Listed<unknown>): number {
  return compareNewestFirst(a.listed.timestamp, a.id, b.listed.timestamp, b.id);
}

function sameEntries(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((entry, i) => entry === b[i]);
}
