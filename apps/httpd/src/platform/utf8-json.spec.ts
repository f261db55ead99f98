import { defineUtf8Text, isUtf8Text, serializeJson, Utf8Text } from './utf8-json.js';

/** Texts whose escaping differs between ASCII, control, C1, separator and astral characters. */
const TEXTS = [
  '',
  'plain ascii',
  'quote " backslash \\ slash /',
  'controls \n\r\t\b\f \u0000 \u0001 \u001f end',
  'del \u007f c1 \u0085 \u009f',
  'latin1 é ÿ and past it ē',
  'separators \u2028 \u2029',
  'astral 😀 𝄞',
  '\ufeffbyte-order mark first',
];

/** The same answer with plain strings, and with the texts as fields over their bytes. */
function answers(texts: readonly string[]): { plain: unknown; fielded: unknown } {
  const plain = { id: 'x', files: texts.map((text, index) => ({ id: String(index), binary: false, content: text, after: index })) };
  const fielded = {
    id: 'x',
    // Every other text is escaped ahead (as a diff's blobs are), the rest while serializing.
    files: texts.map((text, index) => {
      const field = new Utf8Text(Buffer.from(text, 'utf8'));
      return Object.assign(defineUtf8Text({ id: String(index), binary: false }, 'content', index % 2 === 0 ? field.prepare() : field), { after: index });
    }),
  };
  return { plain, fielded };
}

describe('serializeJson', () => {
  it('gives the UTF-8 bytes of JSON.stringify for fields over bytes', () => {
    const { plain, fielded } = answers(TEXTS);
    const bytes = serializeJson(fielded);
    expect(Buffer.isBuffer(bytes)).toBe(true);
    expect((bytes as Buffer).toString('utf8')).toBe(JSON.stringify(plain));
  });

  it('gives the same string as JSON.stringify when no field is met', () => {
    const value = { a: 'é 😀', b: [1, null, true], c: { d: '\u0000' } };
    expect(serializeJson(value)).toBe(JSON.stringify(value));
  });

  it('keeps a field where it was defined among the keys', () => {
    const { fielded } = answers(['text']);
    expect(Object.keys((fielded as { files: object[] }).files[0] as object)).toEqual(['id', 'binary', 'content', 'after']);
  });

  it('decodes a field read by code, the same text every time', () => {
    const field = defineUtf8Text({}, 'content', new Utf8Text(Buffer.from('grüße 😀', 'utf8')).prepare()) as { content: string };
    expect(field.content).toBe('grüße 😀');
    expect(field.content).toBe('grüße 😀');
    expect(JSON.stringify(field)).toBe('{"content":"grüße 😀"}');
  });

  it('stays exact when another string of the answer reads like the placeholder', () => {
    const { plain, fielded } = answers(['one', 'two']);
    const lookalike = '\u0000forge-utf8\u0001';
    const bytes = serializeJson({ before: lookalike, answer: fielded });
    expect(Buffer.from(bytes).toString('utf8')).toBe(JSON.stringify({ before: lookalike, answer: plain }));
  });
});

describe('Utf8Text', () => {
  it('keeps its JSON form in a buffer of its own, never in a slice of the shared pool', () => {
    const json = new Utf8Text(Buffer.from('short "text"\n')).prepare().jsonBytes();
    expect(json.toString('utf8')).toBe(JSON.stringify('short "text"\n'));
    expect([json.byteOffset, json.buffer.byteLength]).toEqual([0, json.length]);
  });
});

describe('isUtf8Text', () => {
  it('accepts UTF-8 and refuses other bytes', () => {
    expect(isUtf8Text(Buffer.from('é 😀', 'utf8'))).toBe(true);
    expect(isUtf8Text(Buffer.from([0x63, 0x61, 0x66, 0xe9]))).toBe(false);
    expect(isUtf8Text(Buffer.from([0xed, 0xa0, 0x80]))).toBe(false);
  });
});
