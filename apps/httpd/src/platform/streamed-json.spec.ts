import type { Readable } from 'node:stream';
import { streamedJson, streamedJsonArray } from './streamed-json.js';
import { defineUtf8Text, Utf8Text } from './utf8-json.js';

async function* chunksOf(...chunks: unknown[][]): AsyncGenerator<unknown[]> {
  for (const chunk of chunks) yield chunk;
}

async function readAll(stream: Readable): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

describe('streamedJson', () => {
  const items = [[{ id: 'a', n: 1 }], [], [{ id: 'b', text: 'ünï "q"\n' }, { id: 'c' }], [{ id: '😀' }]];

  it('writes the bytes JSON.stringify gives for the whole object, list last', async () => {
    const head = { diff: { files: [] }, files: { x: 1 } };
    const file = streamedJson({ head, listKey: 'commits', items: () => chunksOf(...items) });
    expect(await readAll(file.getStream())).toBe(JSON.stringify({ ...head, commits: items.flat() }));
    expect(file.getHeaders().type).toBe('application/json; charset=utf-8');
    const empty = streamedJson({ head: {}, listKey: 'list', items: () => chunksOf() });
    expect(await readAll(empty.getStream())).toBe('{"list":[]}');
  });

  it('writes file contents of the head from their bytes', async () => {
    const text = 'ünï "q"\n\u0001 😀';
    const file = defineUtf8Text({ id: 'f' }, 'content', new Utf8Text(Buffer.from(text)).prepare());
    const streamed = streamedJson({ head: { files: { f: file } }, listKey: 'commits', items: () => chunksOf(...items) });
    expect(await readAll(streamed.getStream())).toBe(JSON.stringify({ files: { f: { id: 'f', content: text } }, commits: items.flat() }));
  });

  it('writes a top-level array the same way', async () => {
    expect(await readAll(streamedJsonArray(() => chunksOf(...items)).getStream())).toBe(JSON.stringify(items.flat()));
    expect(await readAll(streamedJsonArray(() => chunksOf([], [])).getStream())).toBe('[]');
  });

  it('aborts the source when the answer is destroyed (the client went away)', async () => {
    let seen: AbortSignal | undefined;
    const stream = streamedJsonArray((signal) => {
      seen = signal;
      return chunksOf([1], [2], [3]);
    }).getStream();
    await new Promise<void>((resolve) => stream.once('data', () => resolve()));
    expect(seen?.aborted).toBe(false);
    stream.destroy();
    await new Promise<void>((resolve) => stream.once('close', () => resolve()));
    expect(seen?.aborted).toBe(true);
  });

  it('fails the stream, after what was written, when the source fails midway', async () => {
    async function* failing(): AsyncGenerator<unknown[]> {
      yield [1, 2];
      throw new Error('commit unreadable');
    }
    const stream = streamedJsonArray(() => failing()).getStream();
    const written: string[] = [];
    stream.on('data', (part: Buffer) => written.push(part.toString('utf8')));
    const error = await new Promise<Error>((resolve) => stream.once('error', resolve));
    expect(error.message).toBe('commit unreadable');
    expect(written.join('')).toBe('[1,2');
  });
});
