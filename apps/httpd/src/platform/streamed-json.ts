import { Readable } from 'node:stream';
import { StreamableFile } from '@nestjs/common';
import { serializeJson } from './utf8-json.js';

/** Content type of every JSON answer, streamed or not (what Fastify sets for a serialized object). */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Produces a list's items chunk by chunk; stops producing once `signal` aborts. */
export type ChunkSource = (signal: AbortSignal) => AsyncIterable<readonly unknown[]>;

/** A JSON object whose last member is a list produced in chunks. */
export interface StreamedJsonObject {
  /** The members before the list, in order. */
  readonly head: Readonly<Record<string, unknown>>;
  /** Name of the list member, written last. */
  readonly listKey: string;
  /**
   * The list's items, chunk by chunk, read only as fast as the client takes the bytes; the
   * signal aborts when the answer ends early (the client went away).
   */
  readonly items: ChunkSource;
  /**
   * Called once when the answer ends, however it ends (written whole, the client left, the
   * stream was dropped before it started): where what the items are read from is let go.
   */
  readonly onEnd?: () => void;
}

/**
 * An answer written while it is produced: the bytes `JSON.stringify({ ...head, [listKey]: items })`
 * would give, without ever holding the list. For answers whose size the client decides
 * (a range over a whole history); the JSON layer compresses it as it goes
 * (response-cache/representation.ts) but gives it no ETag and does not cache it. A client that
 * goes away stops the reading of further chunks.
 * @param answer - the members before the list, the list's name and its chunks
 * @returns what a controller returns for Nest to stream
 */
export function streamedJson(answer: StreamedJsonObject): StreamableFile {
  // The head's file contents are written from their bytes (utf8-json.ts), in one go as before.
  const opening = serializeJson(answer.head);
  const members = (typeof opening === 'string' ? Buffer.from(opening) : opening).subarray(0, -1);
  const prefix = Buffer.concat([members, Buffer.from(`${members.length > 1 ? ',' : ''}${JSON.stringify(answer.listKey)}:[`)]);
  return streamed((signal) => jsonChunks({ prefix, items: answer.items, suffix: ']}' }, signal), answer.onEnd);
}

/**
 * A JSON array written while it is produced, like {@link streamedJson}: the bytes
 * `JSON.stringify(items)` would give.
 * @param items - the array's items, chunk by chunk
 * @param onEnd - called once when the answer ends, however it ends (see {@link StreamedJsonObject.onEnd})
 * @returns what a controller returns for Nest to stream
 */
export function streamedJsonArray(items: ChunkSource, onEnd?: () => void): StreamableFile {
  return streamed((signal) => jsonChunks({ prefix: '[', items, suffix: ']' }, signal), onEnd);
}

function streamed(write: (signal: AbortSignal) => AsyncGenerator<Buffer>, onEnd: () => void = () => undefined): StreamableFile {
  const ended = new AbortController();
  const stream = Readable.from(write(ended.signal), { objectMode: false });
  // Also when it ends normally: nothing is waiting then. A stream destroyed before its first
  // read closes too, while a generator that never started runs no `finally`.
  stream.once('close', () => {
    ended.abort();
    onEnd();
  });
  return new StreamableFile(stream, { type: JSON_CONTENT_TYPE });
}

const COMMA = 0x2c;

async function* jsonChunks(
  { prefix, items, suffix }: { prefix: Buffer | string; items: ChunkSource; suffix: string },
  signal: AbortSignal,
): AsyncGenerator<Buffer> {
  yield Buffer.isBuffer(prefix) ? prefix : Buffer.from(prefix);
  let first = true;
  for await (const chunk of items(signal)) {
    if (chunk.length === 0) continue;
    // One stringify per chunk: its `[` becomes the separator after the first chunk, its `]`
    // is left out (no per-item strings and no joined copy of them).
    const bytes = Buffer.from(JSON.stringify(chunk));
    if (first) yield bytes.subarray(1, -1);
    else {
      bytes[0] = COMMA;
      yield bytes.subarray(0, -1);
    }
    first = false;
  }
  yield Buffer.from(suffix);
}
