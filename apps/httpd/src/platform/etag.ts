import { hash, webcrypto } from 'node:crypto';
import type { ContentCoding } from './compression.js';

/** Above this size the body is hashed on the thread pool (WebCrypto) instead of the event loop. */
const SYNC_HASH_MAX_BYTES = 1024 * 1024;

/**
 * The strong ETag of an identity body: `"<SHA-1, base64url>"`. Small bodies are hashed inline
 * (~2 µs for 2 KiB); large ones asynchronously so a multi-megabyte diff never blocks the loop.
 */
export function computeEtag(body: Buffer): string | Promise<string> {
  if (body.length <= SYNC_HASH_MAX_BYTES) return `"${hash('sha1', body, 'base64url')}"`;
  return webcrypto.subtle.digest('SHA-1', body).then((digest) => `"${Buffer.from(digest).toString('base64url')}"`);
}

/**
 * The ETag of one coding of a body: a compressed variant is another representation, so it
 * gets its own strong validator (`"<hash>-br"`, `"<hash>-gzip"`).
 */
export function etagForCoding(etag: string, coding: ContentCoding | null): string {
  return coding === null ? etag : `${etag.slice(0, -1)}-${coding}"`;
}

/**
 * Whether an `If-None-Match` value matches the body whose identity ETag is `etag`
 * (RFC 9110 §13.1.2: weak comparison, `*` matches any current representation). Any coding
 * variant matches: they all stand for the same content.
 */
export function ifNoneMatchMatches(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch === etag) return true;
  const opaque = etag.slice(1, -1);
  for (const raw of ifNoneMatch.split(',')) {
    let tag = raw.trim();
    if (tag === '*') return true;
    if (tag.startsWith('W/')) tag = tag.slice(2);
    if (tag.length < 2 || !tag.startsWith('"') || !tag.endsWith('"')) continue;
    const candidate = tag.slice(1, -1);
    if (candidate === opaque || candidate === `${opaque}-br` || candidate === `${opaque}-gzip`) return true;
  }
  return false;
}
