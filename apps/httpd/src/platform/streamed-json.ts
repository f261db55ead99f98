import { Readable } from 'node:stream';
import { StreamableFile } from '@nestjs/common';

/** Content type of every JSON answer, streamed or not (what Fastify sets for a serialized object). */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** A JSON object whose last member is a list produced in chunks. */
export interface StreamedJsonObject {
  /** The members before the list, in order. */
  readonly head: Readonly<Record<string, unknown>>;
  /** Name of the list member, written last. */
  readonly listKey: string;
  /** The list's items, chunk by chunk; read only as fast as the client takes the bytes. */
  readonly items: AsyncIterable<readonly unknown[]>;
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
  return new StreamableFile(Readable.from(jsonChunks(answer), { objectMode: false }), { type: JSON_CONTENT_TYPE });
}

async function* jsonChunks({ head, listKey, items }: StreamedJsonObject): AsyncGenerator<Buffer> {
  const opening = JSON.stringify(head);
  yield Buffer.from(`${opening === '{}' ? '{' : `${opening.slice(0, -1)},`}${JSON.stringify(listKey)}:[`);
  let separator = '';
  for await (const chunk of items) {
    if (chunk.length === 0) continue;
    yield Buffer.from(separator + chunk.map((item) => JSON.stringify(item)).join(','));
    separator = ',';
  }
  yield Buffer.from(']}');
}
