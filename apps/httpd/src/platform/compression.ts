import { promisify } from 'node:util';
import type { Transform } from 'node:stream';
import { brotliCompress, constants, createBrotliCompress, createGzip, gzip } from 'node:zlib';
import { BoundedCache } from '@forge-httpd/bounded-cache';

/** The content codings forge-httpd produces. */
export type ContentCoding = 'br' | 'gzip';

/**
 * Bodies below this size are sent as they are, and their answers do not vary. Measured here:
 * one gzip/br call has a fixed cost (zlib state, thread-pool hop) about what a whole small
 * request costs, while saving at most a few KB that fit in the first TCP round trip anyway.
 */
export const COMPRESSION_MIN_BYTES = 4096;

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);
/** The settings {@link compress} and {@link compressStream} share (see {@link compress}). */
const GZIP_OPTIONS = { level: 6 };
const BROTLI_PARAMS = { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT };

/**
 * Compresses on libuv's thread pool (never on the event loop): gzip level 6 (zlib's default);
 * brotli quality 4, which costs about as much CPU as gzip 6 and still compresses JSON better.
 */
export function compress(body: Buffer, coding: ContentCoding): Promise<Buffer> {
  if (coding === 'gzip') return gzipAsync(body, GZIP_OPTIONS);
  return brotliAsync(body, { params: { ...BROTLI_PARAMS, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
}

/** {@link compress} as a stream, with the same settings, for answers written as they are produced. */
export function compressStream(coding: ContentCoding): Transform {
  return coding === 'gzip' ? createGzip(GZIP_OPTIONS) : createBrotliCompress({ params: BROTLI_PARAMS });
}

/** Accept-Encoding values seen so far and their choice (clients send a handful of spellings). */
const negotiated = new BoundedCache<string, ContentCoding | null>({ maxEntries: 256 });

/**
 * The coding to answer with for an `Accept-Encoding` value (RFC 9110 §12.5.3): `br` or `gzip`
 * with the higher q-value (br on ties), `*` standing for codings not listed; null = identity.
 */
export function negotiateEncoding(acceptEncoding: string | undefined): ContentCoding | null {
  if (acceptEncoding === undefined || acceptEncoding === '') return null;
  return negotiated.getOrCompute(acceptEncoding, () => chooseCoding(acceptEncoding));
}

function chooseCoding(acceptEncoding: string): ContentCoding | null {
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...parameters] = part.split(';').map((text) => text.trim().toLowerCase());
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (name !== '') weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (coding: string): number => weights.get(coding) ?? weights.get('*') ?? 0;
  const br = weightOf('br');
  const gzipWeight = Math.max(weightOf('gzip'), weights.get('x-gzip') ?? 0);
  if (br > 0 && br >= gzipWeight) return 'br';
  return gzipWeight > 0 ? 'gzip' : null;
}
