// @forge-httpd/bounded-cache: one least-recently-used cache bounded by entries and/or weight.
export { BoundedCache } from './bounded-cache.js';
export type { BoundedCacheOptions, BoundedCacheStats, RemovalReason } from './bounded-cache.js';
