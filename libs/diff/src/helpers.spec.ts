import { quoteGitPath } from './c-quote.js';
import { listDiffBlobs } from './diff-blobs.js';
import { fileModeOf } from './file-mode.js';
import { isBinaryContent } from './is-binary-content.js';
import { summarizeDiff } from './summarize-diff.js';
import type { DiffContent, FileDiff, FileStatus } from './types.js';

describe('isBinaryContent', () => {
  it.each([
    ['empty content', '', false],
    ['plain text', 'hello\nworld\n', false],
    ['text with tabs, CR and a form feed', 'a\tb\r\n\fc\x1b[0m\b\n', false],
    ['UTF-8 text', 'héllo wörld ✓\n', false],
    ['a NUL byte', 'abc\0def', true],
    ['one control byte among few printable ones', 'abc\x01', true],
    ['one control byte per 128 printable bytes', 'x'.repeat(128) + '\x01', false],
    ['two control bytes per 255 printable bytes', 'x'.repeat(255) + '\x01\x02', true],
    ['DEL bytes', 'ab\x7f', true],
  ])('classifies %s', (_, text, binary) => {
    expect(isBinaryContent(Buffer.from(text, 'utf8'))).toBe(binary);
  });

  it('looks only at the first 8000 bytes', () => {
    expect(isBinaryContent(Buffer.concat([Buffer.alloc(8000, 0x61), Buffer.from([0])]))).toBe(false);
    expect(isBinaryContent(Buffer.concat([Buffer.alloc(7999, 0x61), Buffer.from([0])]))).toBe(true);
  });
});

describe('quoteGitPath', () => {
  it.each([
    ['plain/path.txt', 'a/', 'a/plain/path.txt'],
    ['sp ace', 'b/', 'b/sp ace'],
    ['tab\tnl\n', 'a/', '"a/tab\\tnl\\n"'],
    ['q"b\\', '', '"q\\"b\\\\"'],
    ['\x01\x7f\x07', '', '"\\001\\177\\a"'],
    ['ünï', 'a/', 'a/ünï'],
  ])('renders %j with prefix %j as git does', (name, prefix, expected) => {
    expect(quoteGitPath(Buffer.from(name, 'utf8'), prefix).toString('utf8')).toBe(expected);
  });
});

describe('fileModeOf', () => {
  it.each([
    ['100644', 'blob'],
    ['100755', 'blobExecutable'],
    ['100664', 'blob'],
    ['040000', 'tree'],
    ['120000', 'link'],
    ['160000', 'commit'],
  ])('names %s %s', (mode, name) => {
    expect(fileModeOf(mode)).toBe(name);
  });
});

function file(status: FileStatus, content: DiffContent, oids: [string | null, string | null], mode = '100644'): FileDiff {
  const side = (oid: string | null) => (oid === null ? null : { oid, gitMode: mode, mode: fileModeOf(mode) });
  const path = Buffer.from('p');
  return {
    status,
    oldPath: 'p',
    newPath: 'p',
    oldPathBytes: path,
    newPathBytes: path,
    old: side(oids[0]),
    new: side(oids[1]),
    similarity: null,
    typeChange: false,
    content,
  };
}

const plain = (additions: number, deletions: number): DiffContent => ({
  type: 'plain',
  hunks: [],
  stats: { additions, deletions },
  eof: 'noneMissing',
});

describe('summarizeDiff', () => {
  it('counts every file but only the lines of added, deleted and modified files', () => {
    const files = [
      file('added', plain(3, 0), [null, 'a']),
      file('deleted', plain(0, 2), ['b', null]),
      file('modified', plain(1, 1), ['c', 'd']),
      file('moved', plain(5, 5), ['e', 'f']),
      file('copied', plain(7, 0), ['g', 'h']),
      file('modified', { type: 'binary' }, ['i', 'j']),
    ];
    expect(summarizeDiff(files)).toEqual({ filesChanged: 6, insertions: 4, deletions: 3 });
  });
});

describe('listDiffBlobs', () => {
  it('lists the blobs of both sides once, ascending, without submodules', () => {
    const files = [
      file('modified', plain(1, 1), ['cc', 'aa']),
      file('added', plain(1, 0), [null, 'bb']),
      file('deleted', plain(0, 1), ['aa', null]),
      file('modified', plain(1, 1), ['s1', 's2'], '160000'),
    ];
    expect(listDiffBlobs(files)).toEqual(['aa', 'bb', 'cc']);
  });
});
