import type { OutgoingHttpHeaders } from 'node:http';
import { BoundedCache } from '@forge-httpd/bounded-cache';
import type { ContentCoding } from '../platform/compression.js';

/** Default bound of {@link ResponseCache}: 64 MiB of bodies and compressed variants. */
export const DEFAULT_RESPONSE_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * Per-entry overhead (entry and header objects, key strings, map slots) charged on top of the
 * bytes: ~1.9 KiB measured on the heap per entry (4,500 commit, tree and stats answers).
 */
const ENTRY_OVERHEAD_BYTES = 2048;

/** One rendered answer of an immutable route, replayed byte for byte on a hit. */
export interface CachedResponse {
  readonly key: string;
  /** 200, or 413 for a blob above the served size (also immutable). */
  readonly status: number;
  /** Headers to replay (content-type, cache-control, vary, CORS); never etag or encoding. */
  readonly headers: Readonly<Record<string, string>>;
  /** The serialized JSON, identity coding. */
  readonly body: Buffer;
  /** Quoted strong ETag of the identity body, without coding suffix; null for a 413. */
  readonly etag: string | null;
  /** Stamp of the state the body depends on (branches of commit detail and stats; issues and patches), or null. */
  readonly stateStamp: string | null;
  /** Compressed variants, filled lazily; a promise while compression runs. */
  readonly variants: Map<ContentCoding, Buffer | Promise<Buffer>>;
  /** Complete response headers per coding, built once by the front cache. */
  readonly wire: Map<string, OutgoingHttpHeaders>;
  /** Bytes charged against the bound (body, key, variants, overhead). */
  bytes: number;
}

/** Counters for tests, logs and the benchmark. */
export interface ResponseCacheStats {
  hits: number;
  misses: number;
  entries: number;
  bytes: number;
  maxBytes: number;
  evictions: number;
  /** Answers not kept because the cache was past half its bound and their key was new. */
  deferred: number;
}

/**
 * Keys remembered by the admission filter (32-bit hashes, ~40 B each in a Set); forgotten all
 * at once when full, so a key seen once long ago counts as new again.
 */
const ADMISSION_MEMORY_KEYS = 65_536;

/**
 * A least-recently-used store of rendered responses bounded in bytes (a {@link BoundedCache}
 * weighted by each entry's bytes). Entries larger than a quarter of the bound are not kept
 * (one huge diff must not flush everything else).
 *
 * Past half its bound the cache keeps an answer only when its key was rendered before (a
 * doorkeeper): a crawler or mirror asking for every commit once would otherwise fill the whole
 * bound with pages nobody asks for again, pushing out the ones people come back to, and hold
 * that memory.
 */
export class ResponseCache {
  private readonly entries: BoundedCache<string, CachedResponse>;
  private removed: (entry: CachedResponse) => void = () => undefined;
  /** Hashes of keys rendered once while the cache was past half its bound. */
  private readonly seenOnce = new Set<number>();
  private deferred = 0;

  /** @param maxBytes - the bound; 0 disables the cache */
  constructor(readonly maxBytes: number = DEFAULT_RESPONSE_CACHE_BYTES) {
    this.entries = new BoundedCache({
      maxWeight: maxBytes,
      weigh: (entry) => entry.bytes,
      onRemove: (_key, entry) => this.removed(entry),
    });
  }

  /** The entry of `key` (marked most recently used and counted as a hit), or undefined. */
  get(key: string): CachedResponse | undefined {
    return this.entries.get(key);
  }

  /**
   * Stores a new entry (replacing one with the same key) and evicts the least recently used
   * ones until the bound holds.
   * @returns the stored entry, or null when it is too large to keep
   */
  set(entry: Omit<CachedResponse, 'bytes' | 'variants' | 'wire'>): CachedResponse | null {
    const bytes = entry.body.length + entry.key.length * 2 + ENTRY_OVERHEAD_BYTES;
    if (bytes > this.maxBytes / 4 || !this.admits(entry.key)) return null;
    const stored: CachedResponse = { ...entry, body: ownBytes(entry.body), variants: new Map(), wire: new Map(), bytes };
    this.entries.set(entry.key, stored);
    return stored;
  }

  /**
   * Counts a hit on an entry held elsewhere (the front cache's URL index) and marks it most
   * recently used; false when it is no longer stored (evicted or replaced).
   */
  touch(entry: CachedResponse): boolean {
    if (this.entries.peek(entry.key) !== entry) return false;
    this.entries.get(entry.key);
    return true;
  }

  /** Removes the entry of `key`, if any. */
  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Calls `listener` with every entry that leaves the cache (so indexes drop their references). */
  onRemove(listener: (entry: CachedResponse) => void): void {
    this.removed = listener;
  }

  /**
   * Records a finished compressed variant of a stored entry and charges its bytes; an entry
   * evicted meanwhile is left alone (its variant is garbage once the answer is sent).
   */
  addVariant(entry: CachedResponse, variant: { coding: ContentCoding; bytes: Buffer }): void {
    if (this.entries.peek(entry.key) !== entry) return;
    entry.variants.set(variant.coding, ownBytes(variant.bytes));
    entry.bytes += variant.bytes.length;
    this.entries.reweigh(entry.key, entry.bytes);
  }

  /** Current counters and sizes. */
  stats(): ResponseCacheStats {
    const { hits, misses, evictions, entries, weight } = this.entries.stats();
    return { hits, misses, evictions, entries, bytes: weight, maxBytes: this.maxBytes, deferred: this.deferred };
  }

  /**
   * Counts `key` as asked for again before its first rendering is done (a request waiting for
   * it), so that rendering is kept past half the bound and the waiting requests are answered
   * from it instead of each rendering the page again.
   */
  noteAskedAgain(key: string): void {
    if (this.pastHalf()) this.remember(hashKey(key));
  }

  /** Whether a new answer of `key` is kept: always below half the bound, else on its second rendering. */
  private admits(key: string): boolean {
    if (!this.pastHalf()) return true;
    const hash = hashKey(key);
    if (this.seenOnce.delete(hash)) return true;
    this.remember(hash);
    this.deferred += 1;
    return false;
  }

  /** Past half the bound, new keys need a second asking to be kept. */
  private pastHalf(): boolean {
    return this.entries.weight >= this.maxBytes / 2;
  }

  private remember(hash: number): void {
    if (this.seenOnce.size >= ADMISSION_MEMORY_KEYS) this.seenOnce.clear();
    this.seenOnce.add(hash);
  }
}

/** FNV-1a over the key's UTF-16 code units: a collision only admits an answer early. */
function hashKey(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/**
 * `body` in a buffer of its own. Node allocates small buffers (under 4 KiB) as slices of a shared
 * 8 KiB pool; a kept slice keeps the whole pool chunk alive, which made the cache hold ~20%
 * more memory than it counted.
 */
function ownBytes(body: Buffer): Buffer {
  if (body.byteOffset === 0 && body.buffer.byteLength === body.length) return body;
  const copy = Buffer.allocUnsafeSlow(body.length);
  body.copy(copy);
  return copy;
}
