/**
 * Values remembered for one turn of the event loop, then forgotten (`setImmediate`). For cheap
 * change checks (`stat` stamps): the requests handled in one batch of socket reads share one
 * set of reads, which are as concurrent as a single request's own check and send anyway.
 */
export class TurnMemo<K, V> {
  private readonly values = new Map<K, V>();

  /** The value read for `key` during this turn, else `read()`'s (remembered until the turn ends). */
  get(key: K, read: () => V): V {
    if (this.values.has(key)) return this.values.get(key) as V;
    if (this.values.size === 0) setImmediate(() => this.values.clear());
    const value = read();
    this.values.set(key, value);
    return value;
  }
}
