/**
 * Evaluated COBs of one repository, cached by the tips of their refs (and the few other refs
 * a result depends on), so an unchanged object costs nothing and a new change shows on the
 * next request. Everything is read from git (never from `cobs/cache.db`).
 */
import type { Flavour, Oid, RefEntry } from '@forge-httpd/storage';
import type { ChangeRejection } from '../dag/evaluate-changes.js';
import { loadObjectChanges } from '../read/load-object-changes.js';
import { COB_REF_PREFIX, type CobRefIndex, indexCobRefs } from '../read/cob-ref-index.js';
import { type FactCaches, newFactCaches, prepareFoldEnv } from '../read/prepare-fold-env.js';
import { type CobKind, cobKinds, type CobKinds, type CobRepository } from './cob-kinds.js';
import { CobSnapshot } from './cob-snapshot.js';

/** A cached evaluation of one object. */
export interface CachedObject<V> {
  readonly id: Oid;
  readonly tipsKey: string;
  /** Refs consulted (name → oid, null when absent). */
  readonly deps: ReadonlyMap<string, Oid | null>;
  /** Null when the object is invalid (missing or rejected root). */
  readonly value: V | null;
}

/** Derived listings of one COB kind. */
export interface ListingMemo {
  readonly entries: readonly CachedObject<unknown>[];
  /** The last ref index these entries were found current for. */
  index: CobRefIndex;
  readonly derived: Map<string, unknown>;
}

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
  /**
   * Told of each dropped change when an object is evaluated (again after its tips move: dedupe
   * by object if you log).
   */
  readonly onRejected?: (report: CobRejectionReport) => void;
  /** Told after each object evaluation (not of answers reused from the cache). */
  readonly onEvaluated?: (evaluation: CobEvaluation) => void;
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

/** Per-repository COB caches; create one per repository and reuse it across requests. */
export class CobStore {
  readonly kinds: CobKinds;
  private readonly facts: FactCaches = newFactCaches();
  private readonly objects = new Map<string, CachedObject<unknown>>();
  private readonly pending = new Map<string, Promise<CachedObject<unknown>>>();
  /**
   * Per-kind memo of derived listings, keyed by the exact cached objects they came from and
   * remembering the ref index they were last confirmed against.
   */
  readonly listings = new Map<string, ListingMemo>();
  private lastIndex: { readonly entries: readonly RefEntry[]; readonly index: CobRefIndex } | null = null;

  constructor(
    flavour: Flavour,
    private readonly options: CobStoreOptions = {},
  ) {
    this.kinds = cobKinds(flavour);
  }

  /**
   * Lists the repository's refs once and returns a view of its COBs at that moment.
   * @param repo - the repository (may be a fresh handle each request)
   */
  async snapshot(repo: CobRepository): Promise<CobSnapshot> {
    const entries = await repo.git.listRefs(COB_REF_PREFIX);
    // The git layer answers the very same listing while no ref moved: so is the index, and
    // listings derived from it are reused without visiting each object.
    if (this.lastIndex?.entries !== entries) this.lastIndex = { entries, index: indexCobRefs(entries) };
    return new CobSnapshot(this, repo, this.lastIndex.index);
  }

  /**
   * Returns an object's evaluation, reusing the cache when its tips and dependencies are unchanged.
   * @internal used by {@link CobSnapshot}
   */
  async object<V>(args: { kind: CobKind<V>; id: Oid; repo: CobRepository; index: CobRefIndex }): Promise<CachedObject<V>> {
    const { kind, id, index } = args;
    const tips = index.objects.get(kind.typeName)?.get(id) ?? [];
    const tipsKey = tips.join(',');
    const key = `${kind.typeName}/${id}`;
    const cached = this.objects.get(key);
    if (cached !== undefined && cached.tipsKey === tipsKey && depsHold(cached.deps, index)) return cached as CachedObject<V>;
    const pendingKey = `${key}@${tipsKey}`;
    let pending = this.pending.get(pendingKey);
    if (pending === undefined) {
      pending = this.evaluate({ ...args, tips, tipsKey }).finally(() => this.pending.delete(pendingKey));
      this.pending.set(pendingKey, pending);
    }
    const result = await pending;
    this.objects.set(key, result);
    return result as CachedObject<V>;
  }

  private async evaluate<V>(args: {
    kind: CobKind<V>;
    id: Oid;
    repo: CobRepository;
    index: CobRefIndex;
    tips: readonly Oid[];
    tipsKey: string;
  }): Promise<CachedObject<V>> {
    const { kind, id, repo, index, tips, tipsKey } = args;
    const started = performance.now();
    // Loaded changes are not kept: an object whose tips moved re-reads its few changes (0.1 ms
    // each through cat-file), while keeping every change of 12,000 objects cost ~25 MB.
    const changes = await loadObjectChanges({ git: repo.git, tips, typeName: kind.typeName, cache: new Map() });
    const { env, deps } = await prepareFoldEnv({
      git: repo.git,
      changes,
      refs: async (name) => index.refs.get(name) ?? null,
      caches: this.facts,
      projectPayloadId: this.kinds.projectPayloadId,
    });
    const dependOn = (ref: string): void => void deps.set(ref, index.refs.get(ref) ?? null);
    const listener = this.options.onRejected;
    const onReject = (rejection: ChangeRejection): void => listener?.({ ...rejection, rid: repo.rid, typeName: kind.typeName, object: id });
    const value = await kind.evaluate({ id, changes, env, repo, dependOn, onReject });
    this.options.onEvaluated?.({ rid: repo.rid, typeName: kind.typeName, changes: changes.length, durationMs: performance.now() - started });
    return { id, tipsKey, deps, value };
  }
}

function depsHold(deps: ReadonlyMap<string, Oid | null>, index: CobRefIndex): boolean {
  for (const [name, oid] of deps) if ((index.refs.get(name) ?? null) !== oid) return false;
  return true;
}
