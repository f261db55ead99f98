import v8 from 'node:v8';
import vm from 'node:vm';
import type { Oid } from '../git/objects/oid.js';
import { formatSignedRefs, parseSignedRefsBlob } from './format-signed-refs.js';

const A = 'a'.repeat(40) as Oid;
const B = '0123456789abcdef0123456789abcdef01234567' as Oid;

describe('parseSignedRefsBlob', () => {
  it('reads back what the writer formats, names in any script included', () => {
    const refs = new Map<string, Oid>([
      ['refs/heads/main', A],
      ['refs/heads/ünïcode/名前', B],
      ['refs/tags/v1 with space', A],
    ]);
    expect(parseSignedRefsBlob(formatSignedRefs(refs))).toEqual(refs);
    expect(parseSignedRefsBlob(Buffer.alloc(0))).toEqual(new Map());
  });

  it.each([
    ['no final newline', `${A} refs/heads/main`],
    ['an empty line', `${A} refs/heads/main\n\n`],
    ['just a newline', '\n'],
    ['no name', `${A} \n`],
    ['a short id', `${A.slice(1)} refs/heads/main\n`],
    ['an upper-case id', `${A.toUpperCase()} refs/heads/main\n`],
    ['a tab for the space', `${A}\trefs/heads/main\n`],
    ['a name twice', `${A} refs/heads/main\n${B} refs/heads/main\n`],
    ['a non-ASCII id', `${'é'.repeat(20)} refs/heads/main\n`],
    // The bytes right outside the hex digits' ranges ('/' and ':' around 0-9, '`' and 'g' around a-f).
    ...['/', ':', '`', 'g'].map((byte) => [`an id ending in ${byte}`, `${A.slice(0, 39)}${byte} refs/heads/main\n`]),
  ])('refuses a blob with %s', (_, text) => {
    expect(parseSignedRefsBlob(Buffer.from(text, 'utf8'))).toBeNull();
  });

  it('keeps no blob alive through a name and an id taken from it', () => {
    v8.setFlagsFromString('--expose-gc');
    const collectGarbage = vm.runInNewContext('gc') as () => void;
    const heap = (): number => {
      collectGarbage();
      collectGarbage();
      return process.memoryUsage().heapUsed;
    };
    // ~110 bytes a line, 4,000 lines: ~440 KB a blob, ~4.4 MB if all ten stayed alive.
    const blobOf = (version: number): Buffer =>
      formatSignedRefs(Array.from({ length: 4000 }, (_, i): [string, Oid] => [`refs/heads/patches/${version}/${i.toString(16).padStart(40, '0')}`, A]));
    const kept: string[] = [];
    const before = heap();
    for (let version = 0; version < 10; version += 1) {
      const refs = parseSignedRefsBlob(blobOf(version));
      const [name, oid] = [...(refs ?? new Map<string, Oid>())][version * 7] ?? ['', ''];
      kept.push(name, oid);
    }
    expect(kept.filter((text) => text !== '')).toHaveLength(20);
    expect(heap() - before).toBeLessThan(1024 * 1024);
  });
});
