import { formatGitPatch } from './format-git-patch.js';
import { parseGitPatch } from './parse-git-patch.js';
import { LINES, only, plain, useScratchRepos } from './scratch-repos.testing.js';
import type { DiffContent } from './types.js';

const { diffOf } = useScratchRepos();

describe('parseGitPatch', () => {
  it('returns no files for an empty diff', () => {
    expect(parseGitPatch(Buffer.alloc(0))).toEqual([]);
  });

  it('parses a modification with line numbers, ranges, stats and the function context header', async () => {
    const source = 'int main(void)\n{\n' + LINES + '}\n';
    const { output, files } = await diffOf([{ path: 'main.c', content: source }], [{ path: 'main.c', content: source.replace('line 12\n', 'line twelve\n') }]);
    const file = only(files);
    expect(file).toMatchObject({ status: 'modified', oldPath: 'main.c', newPath: 'main.c', similarity: null });
    expect(file.old?.mode).toBe('blob');
    const content = plain(file.content);
    expect(content.stats).toEqual({ additions: 1, deletions: 1 });
    expect(content.eof).toBe('noneMissing');
    const hunk = content.hunks[0];
    expect(hunk?.header).toBe('@@ -11,7 +11,7 @@ int main(void)\n');
    expect(hunk?.old).toEqual({ start: 11, end: 18 });
    expect(hunk?.lines.slice(2, 5)).toEqual([
      { type: 'context', text: '    line 11\n', lineNoOld: 13, lineNoNew: 13 },
      { type: 'deletion', text: '    line 12\n', lineNo: 14 },
      { type: 'addition', text: '    line twelve\n', lineNo: 14 },
    ]);
    expect(formatGitPatch(files).equals(output)).toBe(true);
  });

  it('reports a pure rename as moved with empty content and both sides equal', async () => {
    const { output, files } = await diffOf(
      [{ path: 'a/old.txt', content: LINES }],
      [
        { path: 'a/old.txt', delete: true },
        { path: 'b/new.txt', content: LINES },
      ],
    );
    const file = only(files);
    expect(file).toMatchObject({ status: 'moved', oldPath: 'a/old.txt', newPath: 'b/new.txt', similarity: 100 });
    expect(file.content).toEqual({ type: 'empty' });
    expect(file.old).toEqual(file.new);
    expect(formatGitPatch(files).equals(output)).toBe(true);
  });

  it('reports a rename with edits as moved with a plain diff and its similarity', async () => {
    const { output, files } = await diffOf(
      [{ path: 'old.txt', content: LINES }],
      [
        { path: 'old.txt', delete: true },
        { path: 'new.txt', content: LINES.replace('line 3\n', 'line three\n') },
      ],
    );
    const file = only(files);
    expect(file.status).toBe('moved');
    expect(file.similarity).toBeGreaterThan(50);
    expect(plain(file.content).stats).toEqual({ additions: 1, deletions: 1 });
    expect(formatGitPatch(files).equals(output)).toBe(true);
  });

  it('reports a copy of a modified file as copied', async () => {
    const { output, files } = await diffOf(
      [{ path: 'src.txt', content: LINES }],
      [
        { path: 'src.txt', content: LINES + 'more\n' },
        { path: 'copy.txt', content: LINES },
      ],
    );
    expect(files.map((file) => [file.status, file.oldPath, file.newPath])).toEqual([
      ['copied', 'src.txt', 'copy.txt'],
      ['modified', 'src.txt', 'src.txt'],
    ]);
    expect(formatGitPatch(files).equals(output)).toBe(true);
  });

  it('marks binary files as binary', async () => {
    const { output, files } = await diffOf(
      [{ path: 'img.bin', content: Buffer.from([0, 1, 2, 3]) }],
      [
        { path: 'img.bin', content: Buffer.from([0, 1, 2, 4]) },
        { path: 'new.bin', content: Buffer.from([0x89, 0x50, 0, 0]) },
      ],
    );
    expect(files.map((file) => [file.status, file.content.type])).toEqual([
      ['modified', 'binary'],
      ['added', 'binary'],
    ]);
    expect(formatGitPatch(files).equals(output)).toBe(true);
  });

  it.each([
    ['oldMissing', 'a\nb', 'a\nb\n'],
    ['newMissing', 'a\nb\n', 'a\nc'],
    ['bothMissing', 'a\nb', 'a\nc'],
    // The hunk does not reach the end, so git shows no marker.
    ['noneMissing', 'a\nb\nc\nd\ne\nf\ng\nh', 'a\nB\nc\nd\ne\nf\ng\nh'],
    ['noneMissing', 'a\nb\n', 'a\nc\n'],
  ])('reports eof %s for %j → %j', async (eof, before, after) => {
    const { output, files } = await diffOf([{ path: 'f', content: before }], [{ path: 'f', content: after }]);
    const content = plain(only(files).content);
    expect(content.eof).toBe(eof);
    const last = content.hunks.at(-1)?.lines.at(-1);
    expect(last?.text?.endsWith('\n')).toBe(eof !== 'newMissing' && eof !== 'bothMissing');
    expect(formatGitPatch(files).equals(output)).toBe(true);
  });

  it('does not count "no newline" markers as lines', async () => {
    const { files } = await diffOf([{ path: 'f', content: 'a' }], [{ path: 'f', content: 'b' }]);
    const content = plain(only(files).content);
    expect(content.stats).toEqual({ additions: 1, deletions: 1 });
    expect(content.hunks[0]?.lines.map((line) => line.text)).toEqual(['a', 'b']);
  });

  it('reports a mode change without content change as a hunk-less plain modification', async () => {
    const { output, files } = await diffOf([{ path: 'run.sh', content: 'echo\n' }], [{ path: 'run.sh', content: 'echo\n', kind: 'executable' }]);
    const file = only(files);
    expect(file.status).toBe('modified');
    expect(file.old?.mode).toBe('blob');
    expect(file.new?.mode).toBe('blobExecutable');
    expect(file.old?.oid).toBe(file.new?.oid);
    expect(file.content).toEqual({ type: 'plain', hunks: [], stats: { additions: 0, deletions: 0 }, eof: 'noneMissing' });
    expect(formatGitPatch(files).equals(output)).toBe(true);
  });

  it('names symlinks link and submodules commit', async () => {
    const submodule = 'ab62dce683c14b53630e4190ade945ed082e343d';
    const { output, files } = await diffOf(
      [{ path: 'x', content: 'x\n' }],
      [
        { path: 'ln', link: 'x' },
        { path: 'vendor/sub', submodule },
      ],
    );
    expect(files.map((file) => [file.newPath, file.new?.mode, file.new?.oid])).toEqual([
      ['ln', 'link', expect.any(String)],
      ['vendor/sub', 'commit', submodule],
    ]);
    expect(plain(files[1]?.content as DiffContent).hunks[0]?.lines[0]?.text).toBe(`Subproject commit ${submodule}\n`);
    expect(formatGitPatch(files).equals(output)).toBe(true);
  });

  it('splits a type change into a deletion and an addition', async () => {
    const { output, files } = await diffOf([{ path: 'p', link: 'target' }], [{ path: 'p', content: 'file now\n' }]);
    expect(files.map((file) => [file.status, file.typeChange, (file.old ?? file.new)?.mode])).toEqual([
      ['deleted', true, 'link'],
      ['added', true, 'blob'],
    ]);
    expect(formatGitPatch(files).equals(output)).toBe(true);
  });

  it('lists every file of a deleted directory and handles empty files', async () => {
    const { output, files } = await diffOf(
      [
        { path: 'dir/a', content: 'a\n' },
        { path: 'dir/sub/b', content: 'b\n' },
        { path: 'gone-empty', content: '' },
      ],
      [
        { path: 'dir/a', delete: true },
        { path: 'dir/sub/b', delete: true },
        { path: 'gone-empty', delete: true },
        { path: 'new-empty', content: '' },
      ],
    );
    // git pairs the two empty blobs as a rename.
    expect(files.map((file) => [file.status, file.oldPath, file.newPath])).toEqual([
      ['deleted', 'dir/a', 'dir/a'],
      ['deleted', 'dir/sub/b', 'dir/sub/b'],
      ['moved', 'gone-empty', 'new-empty'],
    ]);
    expect(files[2]?.content).toEqual({ type: 'empty' });
    expect(formatGitPatch(files).equals(output)).toBe(true);
  });

  it('shows an added empty file as a plain diff without hunks', async () => {
    const { output, files } = await diffOf([{ path: 'x', content: 'x\n' }], [{ path: 'new-empty', content: '' }]);
    expect(only(files).content).toEqual({ type: 'plain', hunks: [], stats: { additions: 0, deletions: 0 }, eof: 'noneMissing' });
    expect(formatGitPatch(files).equals(output)).toBe(true);
  });

  it('keeps CR in line text', async () => {
    const { output, files } = await diffOf([{ path: 'w.txt', content: 'a\r\nb\r\n' }], [{ path: 'w.txt', content: 'a\r\nc\r\n' }]);
    expect(plain(only(files).content).hunks[0]?.lines.map((line) => line.text)).toEqual(['a\r\n', 'b\r\n', 'c\r\n']);
    expect(formatGitPatch(files).equals(output)).toBe(true);
  });

  it('gives null text and keeps the bytes of lines that are not UTF-8', async () => {
    const latin1 = Buffer.from('caf\xe9\n', 'latin1');
    const { output, files } = await diffOf([{ path: 'l.txt', content: 'cafe\n' }], [{ path: 'l.txt', content: latin1 }]);
    const added = plain(only(files).content).hunks[0]?.lines[1];
    expect(added).toMatchObject({ type: 'addition', text: null, lineNo: 1 });
    expect(added?.raw?.equals(latin1)).toBe(true);
    expect(formatGitPatch(files).equals(output)).toBe(true);
  });

  it('gives a null header when the function context is not UTF-8', () => {
    // git itself cuts function context at invalid UTF-8, so the input is written by hand.
    const section = Buffer.from('diff --git a/h b/h\nindex x\n--- a/h\n+++ b/h\n@@ -1 +1 @@ f\xe9()\n-a\n+b\n', 'latin1');
    const record = Buffer.from(`:100644 100644 ${'1'.repeat(40)} ${'2'.repeat(40)} M\0h\0\0`, 'latin1');
    const [file] = parseGitPatch(Buffer.concat([record, section]));
    const hunk = plain(file?.content as DiffContent).hunks[0];
    expect(hunk?.header).toBeNull();
    expect(hunk?.section.toString('latin1')).toBe(' f\xe9()');
  });
});
