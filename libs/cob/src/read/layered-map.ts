/**
 * A read-only map made of a shared base and the few entries changed over it. An index updated
 * by a few refs shares the tracker's 26,000 refs (and 10,000 issues) of the index before it
 * instead of copying them: each copy cost milliseconds and as much again in collections.
 */

/** Marks a key removed over the base. */
const GONE: unique symbol = Symbol('gone');

/** Past this many changed entries (and a quarter of the base), the map is copied flat again. */
const FLATTEN_AT = 1024;

export class LayeredMap<K, V> implements ReadonlyMap<K, V> {
  private constructor(
    private readonly base: ReadonlyMap<K, V>,
    private readonly over: ReadonlyMap<K, V | typeof GONE>,
    readonly size: number,
  ) {}

  /**
   * `map` with `changes` applied (an undefined value removes the key); `map` is left as it is.
   * The result shares `map`'s base: over a layered map, the changed entries are copied, never
   * the base, so chains of updates stay one layer deep.
   */
  static with<K, V>(map: ReadonlyMap<K, V>, changes: Iterable<readonly [K, V | undefined]>): ReadonlyMap<K, V> {
    const layered = map instanceof LayeredMap ? (map as LayeredMap<K, V>) : null;
    const base = layered?.base ?? map;
    const over = new Map<K, V | typeof GONE>(layered?.over ?? []);
    let size = map.size;
    for (const [key, value] of changes) {
      const now = over.get(key);
      const had = now === undefined ? base.has(key) : now !== GONE;
      if (value === undefined) {
        if (had) size -= 1;
        if (base.has(key)) over.set(key, GONE);
        else over.delete(key);
      } else {
        if (!had) size += 1;
        over.set(key, value);
      }
    }
    const flat = over.size > FLATTEN_AT && over.size * 4 > base.size;
    return flat ? new Map(new LayeredMap(base, over, size)) : new LayeredMap(base, over, size);
  }

  get(key: K): V | undefined {
    const value = this.over.get(key);
    if (value === undefined) return this.base.get(key);
    return value === GONE ? undefined : value;
  }

  has(key: K): boolean {
    const value = this.over.get(key);
    return value === undefined ? this.base.has(key) : value !== GONE;
  }

  *entries(): MapIterator<[K, V]> {
    for (const [key, value] of this.base) if (!this.over.has(key)) yield [key, value];
    for (const [key, value] of this.over) if (value !== GONE) yield [key, value];
  }

  *keys(): MapIterator<K> {
    for (const [key] of this.entries()) yield key;
  }

  *values(): MapIterator<V> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }

  forEach(callback: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.entries()) callback.call(thisArg, value, key, this);
  }
}
