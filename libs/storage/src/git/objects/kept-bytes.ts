/**
 * Buffers for objects that caches may keep (inflated entries, delta results, cat-file bodies).
 *
 * Why: `Buffer.allocUnsafe` serves requests up to half of `Buffer.poolSize` as views of one
 * shared slab, and the whole slab lives as long as any view of it. Node 20 and 22 pool 8 KiB
 * slabs (views up to 4 KiB); Node 24 pools 64 KiB slabs (views up to 32 KiB), so a kept object
 * of a few KiB would hold 64 KiB there. Above 4 KiB an object gets its own memory on every Node
 * line; below, a view of the pool costs less than a buffer of its own.
 */

/** Sizes up to this share Node's pool; larger ones get memory of their own. */
const POOLED_MAX_BYTES = 4096;

/** `size` uninitialised bytes, of their own above {@link POOLED_MAX_BYTES}. */
export function keptBytes(size: number): Buffer {
  return size > POOLED_MAX_BYTES ? Buffer.allocUnsafeSlow(size) : Buffer.allocUnsafe(size);
}
