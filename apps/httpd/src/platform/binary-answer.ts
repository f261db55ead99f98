import { Readable } from 'node:stream';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ifNoneMatchMatches } from './etag.js';

/**
 * A non-JSON answer built by a service (raw file, archive, git protocol): status, headers and
 * bytes, either whole or streamed. Services build it; controllers hand it to {@link sendBinary}.
 */
export interface BinaryAnswer {
  /** 200 unless given. */
  readonly status?: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Null: headers only (a HEAD answered without producing the body, so without its length). */
  readonly body: Buffer | Readable | null;
  /** Strong validator (quoted); a matching `If-None-Match` turns the answer into a 304. */
  readonly etag?: string;
}

/** Key of the Fastify route config entry {@link BinaryRoute} writes. */
export const BINARY_ROUTE_CONFIG = 'forgeBinaryRoute';

/**
 * Marks a route whose answers are not JSON API answers: the platform's JSON layer (ETag by
 * hash, compression, response cache) leaves their bodies alone, so streams are never buffered
 * and already compressed archives or packs are never compressed again.
 */
export const BinaryRoute = (): MethodDecorator => RouteConfig({ [BINARY_ROUTE_CONFIG]: true });

/**
 * Sends a {@link BinaryAnswer} on `reply` (for handlers taking `@Res()`): a matching
 * `If-None-Match` → 304 without body; a stream is piped with backpressure and destroyed when
 * the client hangs up (Fastify), which stops the process producing it.
 */
export function sendBinary(request: FastifyRequest, reply: FastifyReply, answer: BinaryAnswer): void {
  const headers = answer.etag === undefined ? answer.headers : { ...answer.headers, etag: answer.etag };
  const ifNoneMatch = request.headers['if-none-match'];
  if (answer.etag !== undefined && ifNoneMatch !== undefined && ifNoneMatchMatches(ifNoneMatch, answer.etag)) {
    const { 'content-type': _type, ...rest } = headers;
    if (answer.body !== null && !Buffer.isBuffer(answer.body)) answer.body.destroy();
    reply.code(304).headers(rest).send();
    return;
  }
  // No body (HEAD of an archive or a git answer): an empty stream, so that no content-length
  // (of an empty body) is claimed for a length nobody computed.
  reply
    .code(answer.status ?? 200)
    .headers(headers)
    .send(answer.body ?? Readable.from([]));
}
