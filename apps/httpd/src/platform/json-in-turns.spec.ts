import { setImmediate as nextTurn } from 'node:timers/promises';
import { serializeJsonInTurns, TURN_BYTES } from './json-in-turns.js';
import { defineUtf8Text, Utf8Text } from './utf8-json.js';

/** A diff answer's shape: its file list, a `files` map of contents over their bytes, and the same with plain strings. */
function diffAnswer(files: number, lineText: string): { fielded: unknown; plain: unknown } {
  const list = Array.from({ length: files }, (_, index) => ({
    status: 'modified',
    path: `dir/file-${index}.txt`,
    diff: { type: 'plain', hunks: [{ header: '@@ -1 +1 @@', lines: [{ type: 'addition', line: `${lineText} ${index}`, lineNo: 1 }] }], eof: 'noneMissing' },
    skipped: undefined,
  }));
  const contents = list.map((_, index) => `${lineText} — contents of ${index} "quoted"\n`);
  const map = (make: (text: string, index: number) => object): Record<string, object> =>
    Object.fromEntries(contents.map((text, index) => [`oid${index}`, make(text, index)]));
  const fielded = {
    commit: { id: 'c0ffee', date: new Date(0), message: 'm' },
    diff: { files: list, stats: { filesChanged: files } },
    files: map((text, index) => defineUtf8Text({ id: `oid${index}`, binary: false }, 'content', new Utf8Text(Buffer.from(text, 'utf8')))),
  };
  const plain = { ...fielded, files: map((text, index) => ({ id: `oid${index}`, binary: false, content: text })) };
  return { fielded, plain };
}

describe('serializeJsonInTurns', () => {
  it('gives the UTF-8 bytes of JSON.stringify for values JSON.stringify treats specially', async () => {
    const values: unknown[] = [
      null,
      3,
      'text é 😀',
      [],
      {},
      [undefined, () => 1, Symbol('s'), Number.NaN, -0, 'x'],
      Array.from({ length: 50 }, (_, index) => (index % 3 === 0 ? undefined : { index, nested: [index] })),
      { a: undefined, b: () => 1, c: Symbol('s'), d: null, 2: 'two', 1: 'one', e: { toJSON: () => 'replaced' } },
      { when: new Date(86_400_000), map: new Map([[1, 2]]), buffer: Buffer.from('ab'), deep: { deeper: { deepest: [1, { x: 2 }] } } },
      Object.assign(Object.create(null) as object, { z: 1, y: [2] }),
    ];
    for (const value of values) expect((await serializeJsonInTurns(value)).toString('utf8')).toBe(JSON.stringify(value));
  });

  it('gives the bytes of the same answer with plain strings when contents are held as bytes', async () => {
    const { fielded, plain } = diffAnswer(100, 'ünïcode ✓ 𝄞');
    expect((await serializeJsonInTurns(fielded)).toString('utf8')).toBe(JSON.stringify(plain));
  });

  it('never decodes a content field, wherever the object holding it sits', async () => {
    class Undecodable extends Utf8Text {
      override toString(): string {
        throw new Error('decoded');
      }
    }
    const field = (text: string): object => defineUtf8Text({ id: 'x', binary: false }, 'content', new Undecodable(Buffer.from(text, 'utf8')));
    const answer = { ...{ path: 'a' }, blob: field('one ✓'), nested: { deeper: field('two') }, list: Array.from({ length: 40 }, () => field('three')) };
    const top = field('top "level"');
    const plainField = (text: string): object => ({ id: 'x', binary: false, content: text });
    const plain = { path: 'a', blob: plainField('one ✓'), nested: { deeper: plainField('two') }, list: Array.from({ length: 40 }, () => plainField('three')) };
    expect((await serializeJsonInTurns(answer)).toString('utf8')).toBe(JSON.stringify(plain));
    expect((await serializeJsonInTurns(top)).toString('utf8')).toBe(JSON.stringify(plainField('top "level"')));
  });

  it('gives the thread back while it writes a long answer, not while it writes a short one', async () => {
    /** Turns of the event loop that passed while `value` was written, and its length. */
    const turnsDuring = async (value: unknown): Promise<{ turns: number; bytes: number }> => {
      let turns = 0;
      let writing = true;
      const counter = (async () => {
        while (writing) {
          await nextTurn();
          if (writing) turns += 1;
        }
      })();
      const bytes = await serializeJsonInTurns(value);
      writing = false;
      await counter;
      return { turns, bytes: bytes.length };
    };
    // ~2,000 files: several turns' worth of bytes.
    const long = await turnsDuring(diffAnswer(2000, 'line').fielded);
    expect(long.bytes).toBeGreaterThan(TURN_BYTES * 4);
    expect(long.turns).toBeGreaterThanOrEqual(4);
    // A small answer is written within the call's own turn.
    expect(await turnsDuring(diffAnswer(3, 'line').fielded)).toEqual({ turns: 0, bytes: expect.any(Number) });
  });
});
