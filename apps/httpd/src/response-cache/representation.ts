import type { FastifyReply, FastifyRequest } from 'fastify';
import { pipeline, type Readable } from 'node:stream';
import { COMPRESSION_MIN_BYTES, compress, compressStream, type ContentCoding, negotiateEncoding } from '../platform/compression.js';
import { appendVary } from '../platform/http-hooks.js';
import { etagForCoding, ifNoneMatchMatches } from '../platform/etag.js';
import type { CompressedBodies } from './compressed-bodies.js';
import type { CachedResponse, ResponseCache } from './response-cache.js';

/** A finished JSON body about to be sent, and where its compressed variants live. */
export interface BodyToSend {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  /** Identity bytes. */
  readonly body: Buffer;
  /** Identity ETag (quoted), or null for answers that get none (413). */
  readonly etag: string | null;
  /** The cache entry holding the variants, when the route is cached. */
  readonly entry: CachedResponse | null;
}

/**
 * Content negotiation and conditional requests for JSON answers: picks the coding, sets
 * `etag` and `content-encoding`, and turns a matching `If-None-Match` into a 304.
 */
export class Representation {
  constructor(
    private readonly cache: ResponseCache,
    private readonly compressedBodies: CompressedBodies,
  ) {}

  /**
   * Chooses the bytes to send (identity or compressed) and sets the matching headers; a
   * compressed variant of a cached entry is made once and kept with the entry, and that of an
   * answer built again with the same bytes is looked up by its ETag.
   */
  select(send: BodyToSend): Buffer | Promise<Buffer> {
    const { request, reply, body, etag } = send;
    const coding = body.length < COMPRESSION_MIN_BYTES ? null : negotiateEncoding(request.headers['accept-encoding']);
    if (etag !== null) reply.header('etag', etagForCoding(etag, coding));
    if (coding === null) return body;
    reply.header('content-encoding', coding);
    // A GET that becomes a 304 sends no bytes: do not compress for it.
    if (request.method === 'GET' && this.notModified(request, etag)) return body;
    if (send.entry !== null) return this.variant(send.entry, coding);
    return etag === null ? compress(body, coding) : this.compressedBodies.get(etag, coding, () => compress(body, coding));
  }

  /**
   * A streamed JSON answer in the negotiated coding, compressed as it goes (zlib on libuv's
   * thread pool). It has no ETag, so no 304 either. Destroying the returned stream (Fastify
   * does when the client goes away) destroys `stream`, which stops its producer.
   */
  encodeStream(send: { request: FastifyRequest; reply: FastifyReply; stream: Readable }): Readable {
    const { request, reply, stream } = send;
    appendVary(reply, 'accept-encoding');
    const coding = negotiateEncoding(request.headers['accept-encoding']);
    if (coding === null) return stream;
    reply.header('content-encoding', coding);
    reply.removeHeader('content-length');
    // Errors end both streams; Fastify logs the one it sees and cuts the response.
    return pipeline(stream, compressStream(coding), () => undefined);
  }

  /**
   * The payload to hand to Fastify after {@link select}: unchanged, or for a matching
   * `If-None-Match` on a 200 a 304 without content (HEAD keeps the payload so Fastify's HEAD
   * handling reports the length the 200 would have had; no body is written either way).
   */
  conditional<P>(answer: { request: FastifyRequest; reply: FastifyReply; payload: P }): P | null {
    const { request, reply, payload } = answer;
    if (reply.statusCode !== 200) return payload;
    const etag = reply.getHeader('etag');
    if (typeof etag !== 'string' || !this.notModified(request, etag)) return payload;
    reply.code(304);
    reply.removeHeader('content-type');
    if (request.method === 'HEAD') return payload;
    reply.removeHeader('content-length');
    reply.removeHeader('content-encoding');
    return null;
  }

  private notModified(request: FastifyRequest, etag: string | null): boolean {
    const ifNoneMatch = request.headers['if-none-match'];
    return etag !== null && ifNoneMatch !== undefined && ifNoneMatchMatches(ifNoneMatch, etag);
  }

  private variant(entry: CachedResponse, coding: ContentCoding): Buffer | Promise<Buffer> {
    const known = entry.variants.get(coding);
    if (known !== undefined) return known;
    const pending = compress(entry.body, coding).then(
      (bytes) => {
        this.cache.addVariant(entry, { coding, bytes });
        return bytes;
      },
      (error: unknown) => {
        entry.variants.delete(coding);
        throw error;
      },
    );
    entry.variants.set(coding, pending);
    return pending;
  }
}
