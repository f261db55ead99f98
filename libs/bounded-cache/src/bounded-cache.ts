/** Why an entry left a {@link BoundedCache}. */
export type RemovalReason = 'evicted' | 'deleted' | 'replaced' | 'cleared';

/** Bounds and hooks of a {@link BoundedCache}; without a bound it grows without limit. */
export interface BoundedCacheOptions<K, V> {
  /** Entries kept at most; 0 keeps nothing. */
  readonly maxEntries?: number;
  /** Total weight (usually bytes, see `weigh`) kept at most; 0 keeps nothing. */
  readonly maxWeight?: number;
  /** The weight of an entry, counted against `maxWeight` (default: 1 per entry). */
  readonly weigh?: (value: V, key: K) => number;
  /** Told of every entry that leaves the cache, after it left (indexes drop their references). */
  readonly onRemove?: (key: K, value: V, reason: RemovalReason) => void;
}

/** Counters and sizes of a {@link BoundedCache}, for logs, metrics and tests. */
export interface BoundedCacheStats {
  readonly entries: number;
  readonly weight: number;
  readonly maxEntries: number;
  readonly maxWeight: number;
  /** Lookups answered from a stored entry or a running load. */
  readonly hits: number;
  readonly misses: number;
  /** Entries dropped to stay within the bounds (not deletions or replacements). */
  readonly evictions: number;
}

interface Entry<V> {
  readonly value: V;
  weight: number;
}

/**
 * A least-recently-used map bounded by entry count and/or total weight. Map insertion order
 * is the recency order: a hit moves its entry to the end, eviction takes from the front, so
 * every operation is O(1) apart from the evictions it causes. An entry heavier than the whole
 * bound is not stored (one huge value must not flush everything else).
 *
 * Asynchronous values go through {@link getOrLoad}: concurrent callers of one key share one
 * load, a failed load is not remembered (the next caller tries again), and a load that was
 * overtaken by {@link set}, {@link delete} or {@link clear} does not store its (possibly stale)
 * result.
 */
export class BoundedCache<K, V> {
  readonly maxEntries: number;
  readonly maxWeight: number;
  private readonly entries = new Map<K, Entry<V>>();
  private readonly loads = new Map<K, Promise<V>>();
  private readonly weigh: (value: V, key: K) => number;
  private readonly onRemove: ((key: K, value: V, reason: RemovalReason) => void) | undefined;
  private totalWeight = 0;
  private hits = 0;
  private misses = 0;
  private evictions = 0;

  /**
   * @param options - bounds (entries, weight) and hooks; see {@link BoundedCacheOptions}
   * @throws RangeError when a bound is negative or not a number
   */
  constructor(options: BoundedCacheOptions<K, V> = {}) {
    this.maxEntries = checkBound('maxEntries', options.maxEntries);
    this.maxWeight = checkBound('maxWeight', options.maxWeight);
    this.weigh = options.weigh ?? (() => 1);
    this.onRemove = options.onRemove;
  }

  /** Number of stored entries. */
  get size(): number {
    return this.entries.size;
  }

  /** Total weight of the stored entries. */
  get weight(): number {
    return this.totalWeight;
  }

  /**
   * The value of `key`, marked most recently used; counted as a hit or a miss.
   * @returns the value, or undefined when not stored
   */
  get(key: K): V | undefined {
    return this.lookup(key)?.value;
  }

  /** The value of `key` without marking it used or counting anything; undefined when not stored. */
  peek(key: K): V | undefined {
    return this.entries.get(key)?.value;
  }

  /** Whether `key` is stored (recency and counters unchanged). */
  has(key: K): boolean {
    return this.entries.has(key);
  }

  /**
   * Stores `value` as the most recently used entry (replacing any entry of `key`, and abandoning
   * a running load of it) and evicts the least recently used ones until the bounds hold.
   * @param weight - the entry's weight; default `weigh(value, key)`
   * @returns false when the entry alone exceeds a bound and was not stored (the previous entry
   *   of `key` is gone all the same)
   */
  set(key: K, value: V, weight: number = this.weigh(value, key)): boolean {
    this.loads.delete(key);
    this.remove(key, 'replaced');
    if (!this.fits(weight, 1)) return false;
    this.entries.set(key, { value, weight });
    this.totalWeight += weight;
    this.evict();
    return true;
  }

  /**
   * Records a new weight of a stored entry (it grew or shrank in place) and evicts until the
   * bounds hold; its recency is unchanged, so it may be evicted itself.
   * @returns false when `key` is not stored
   */
  reweigh(key: K, weight: number): boolean {
    const entry = this.entries.get(key);
    if (entry === undefined) return false;
    this.totalWeight += weight - entry.weight;
    entry.weight = weight;
    this.evict();
    return true;
  }

  /**
   * Removes the entry of `key` and abandons a running load of it (its result will not be stored).
   * @returns whether an entry was stored
   */
  delete(key: K): boolean {
    this.loads.delete(key);
    return this.remove(key, 'deleted');
  }

  /** Every stored key and value, least recently used first (their order is not touched). */
  list(): Array<[K, V]> {
    return [...this.entries].map(([key, entry]) => [key, entry.value]);
  }

  /** Removes every entry and abandons every running load. */
  clear(): void {
    this.loads.clear();
    const removed = [...this.entries];
    this.entries.clear();
    this.totalWeight = 0;
    for (const [key, entry] of removed) this.onRemove?.(key, entry.value, 'cleared');
  }

  /**
   * The stored value of `key`, or the result of `compute`, which is then stored.
   * @param compute - produces the value on a miss; when it throws, nothing is stored
   * @returns the value
   */
  getOrCompute(key: K, compute: () => V): V {
    const entry = this.lookup(key);
    if (entry !== undefined) return entry.value;
    const value = compute();
    this.set(key, value);
    return value;
  }

  /**
   * The stored value of `key`, the running load of it, or a new load whose value is stored once
   * it fulfils. A rejected load is not stored: the next caller loads again.
   * @param load - produces the value on a miss
   * @returns the value
   */
  getOrLoad(key: K, load: () => Promise<V>): Promise<V> {
    const entry = this.lookup(key);
    if (entry !== undefined) return Promise.resolve(entry.value);
    const running = this.loads.get(key);
    if (running !== undefined) {
      // The miss was counted when the load started; joiners are answered by it.
      this.misses -= 1;
      this.hits += 1;
      return running;
    }
    // A load that throws before returning its promise fails like one that rejects.
    const started = (async (): Promise<V> => load())();
    const shared = started.then(
      (value) => {
        if (this.loads.get(key) !== shared) return value;
        this.loads.delete(key);
        this.set(key, value);
        return value;
      },
      (error: unknown) => {
        if (this.loads.get(key) === shared) this.loads.delete(key);
        throw error;
      },
    );
    this.loads.set(key, shared);
    return shared;
  }

  /** Current counters and sizes. */
  stats(): BoundedCacheStats {
    const { hits, misses, evictions, maxEntries, maxWeight } = this;
    return { entries: this.entries.size, weight: this.totalWeight, maxEntries, maxWeight, hits, misses, evictions };
  }

  private lookup(key: K): Entry<V> | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) {
      this.misses += 1;
      return undefined;
    }
    this.hits += 1;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  private fits(weight: number, entries: number): boolean {
    return entries <= this.maxEntries && weight <= this.maxWeight;
  }

  private remove(key: K, reason: RemovalReason): boolean {
    const entry = this.entries.get(key);
    if (entry === undefined) return false;
    this.entries.delete(key);
    this.totalWeight -= entry.weight;
    this.onRemove?.(key, entry.value, reason);
    return true;
  }

  private evict(): void {
    while (!this.fits(this.totalWeight, this.entries.size)) {
      const oldest = this.entries.keys().next();
      if (oldest.done === true) return;
      this.remove(oldest.value, 'evicted');
      this.evictions += 1;
    }
  }
}

function checkBound(name: string, bound: number | undefined): number {
  if (bound === undefined) return Infinity;
  if (Number.isNaN(bound) || bound < 0) throw new RangeError(`${name} must be a number ≥ 0, got ${bound}`);
  return bound;
}
