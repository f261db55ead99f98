import { BoundedCache } from '@forge-httpd/bounded-cache';
import type { ContentCoding } from '../platform/compression.js';

/** Default bound of {@link CompressedBodies}: what the default memory budget gives (config/memory-budget.ts). */
export const DEFAULT_COMPRESSED_BODY_BYTES = 1024 * 1024;

/** Per-entry overhead charged on top of the compressed bytes (key string, map slot, entry). */
const ENTRY_OVERHEAD_BYTES = 256;

/**
 * ETags remembered by the doorkeeper; forgotten all at once when full, so a body seen once long
 * ago counts as new again.
 */
const DOORKEEPER_ETAGS = 4096;

/** What {@link CompressedBodies.stats} tells. */
export interface CompressedBodyStats {
  readonly bytes: number;
  readonly maxBytes: number;
  readonly entries: number;
  /** Requests answered with kept bytes (joining a running compression included). */
  readonly hits: number;
}

/**
 * Compressed bytes of answers the response cache does not keep (listings, remotes, policies,
 * repository info: answers that change, so they are built again for every request), looked up by
 * the ETag of their identity bytes. A body's ETag is a hash of its bytes, so an answer built
 * again with the same bytes has the same compressed bytes, and the second and later requests
 * for an unchanged answer skip compression, which costs more than building the answer for big
 * ones (a big policy list, a tracker's remotes with thousands of peers).
 *
 * A body is kept on its second sighting only (a doorkeeper, as the response cache has): answers
 * asked for once, or that change at every request, are compressed as before and take no room.
 */
export class CompressedBodies {
  private readonly bodies: BoundedCache<string, Buffer>;
  private readonly seen = new Set<string>();

  /** @param maxBytes - bound of the compressed bytes kept (0 keeps none) */
  constructor(maxBytes: number) {
    this.bodies = new BoundedCache<string, Buffer>({ maxWeight: maxBytes, weigh: (bytes, key) => bytes.length + key.length * 2 + ENTRY_OVERHEAD_BYTES });
  }

  /**
   * The body `etag` names, in `coding`: kept bytes when this body was compressed before, else
   * what `compress` makes (kept when the body was seen before). Concurrent requests for a kept
   * body share one compression.
   * @param etag - the quoted strong ETag of the identity bytes
   * @param compress - compresses the identity bytes into `coding`
   */
  get(etag: string, coding: ContentCoding, compress: () => Promise<Buffer>): Promise<Buffer> {
    const key = `${coding} ${etag}`;
    if (this.bodies.maxWeight === 0 || (!this.bodies.has(key) && !this.sawBefore(key))) return compress();
    // Kept bytes, a compression of the same body already running, or a new one kept once done.
    return this.bodies.getOrLoad(key, compress);
  }

  /** Bytes kept now, their bound, and the requests answered with kept bytes. */
  stats(): CompressedBodyStats {
    const { weight, maxWeight, entries, hits } = this.bodies.stats();
    return { bytes: weight, maxBytes: maxWeight, entries, hits };
  }

  private sawBefore(key: string): boolean {
    if (this.seen.has(key)) return true;
    if (this.seen.size >= DOORKEEPER_ETAGS) this.seen.clear();
    this.seen.add(key);
    return false;
  }
}
