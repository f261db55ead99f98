/**
 * A bounded least-recently-used memo for per-head and per-commit results (docs/radicle-httpd.md §9:
 * derive once, reuse). Keys are content-addressed ids, so entries never go stale. The promise
 * is stored, so concurrent requests for one key share one computation; failures are dropped.
 */
export class LruCache<V> {
  private readonly entries = new Map<string, Promise<V>>();

  /** @param capacity - entries kept; 0 disables the cache */
  constructor(private readonly capacity: number) {}

  /**
   * The cached value of `key`, or the result of `compute`, which is then remembered.
   * @param key - a content-addressed key
   * @param compute - produces the value on a miss
   * @returns the value
   */
  getOrCompute(key: string, compute: () => Promise<V>): Promise<V> {
    const cached = this.entries.get(key);
    if (cached !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, cached);
      return cached;
    }
    const value = compute();
    if (this.capacity === 0) return value;
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    value.catch(() => {
      if (this.entries.get(key) === value) this.entries.delete(key);
    });
    return value;
  }
}
