import { gitDiff } from '@forge-httpd/builder/scratch';
import { formatGitPatch } from './format-git-patch.js';
import { parseGitPatch } from './parse-git-patch.js';
import { LINES, only, useScratchRepos } from './scratch-repos.testing.js';

const { diffOf, history } = useScratchRepos();

describe('parseGitPatch on awkward paths and histories', () => {
  it.each([['a space.txt'], ['tab\there'], ['new\nline'], ['quote"and\\backslash'], ['ünïcødé/ファイル.md'], ['-dash-start'], ['ctrl\x01\x7f']])(
    'round-trips the path %j',
    async (name) => {
      const { output, files } = await diffOf([{ path: 'seed', content: 'x\n' }], [{ path: name, content: LINES }]);
      expect(only(files).newPath).toBe(name);
      expect(formatGitPatch(files).equals(output)).toBe(true);
    },
  );

  it('round-trips renames between awkward paths and non-UTF-8 names', async () => {
    const latin = Buffer.from('lat\xe9 name', 'latin1');
    const { output, files } = await diffOf(
      [
        { path: 'sp ace\tx', content: LINES },
        { path: latin, content: 'l\n' },
      ],
      [
        { path: 'sp ace\tx', delete: true },
        { path: 'moved "here"', content: LINES + 'x\n' },
        { path: latin, content: 'l2\n' },
      ],
    );
    expect(files.find((file) => file.status === 'moved')).toMatchObject({ oldPath: 'sp ace\tx', newPath: 'moved "here"' });
    expect(files.find((file) => file.oldPathBytes.equals(latin))?.oldPath).toBe('lat\ufffd name');
    expect(formatGitPatch(files).equals(output)).toBe(true);
  });

  it('diffs a merge against its first parent only', async () => {
    const { gitDir, ids } = await history([
      { message: 'base\n', time: 1, changes: [{ path: 'a', content: 'a\n' }] },
      { message: 'left\n', time: 2, changes: [{ path: 'left', content: 'l\n' }] },
      { message: 'right\n', time: 3, parents: [0], changes: [{ path: 'right', content: 'r\n' }] },
      { message: 'merge\n', time: 4, parents: [1, 2], changes: [{ path: 'right', content: 'r\n' }] },
    ]);
    const files = parseGitPatch(await gitDiff(gitDir, ids[1] ?? '', ids[3] ?? ''));
    expect(files.map((file) => file.newPath)).toEqual(['right']);
  });

  it('diffs a root commit against the empty tree', async () => {
    const { gitDir, ids } = await history([{ message: 'r\n', time: 1, changes: [{ path: 'a', content: 'a\n' }] }]);
    const files = parseGitPatch(await gitDiff(gitDir, null, ids[0] ?? ''));
    expect(files.map((file) => [file.status, file.newPath, file.old])).toEqual([['added', 'a', null]]);
  });
});

describe('parseGitPatch on cut output', () => {
  it('never throws on a prefix of the output and marks files past the cut tooLarge', async () => {
    const { output, files } = await diffOf(
      [
        { path: 'a', content: LINES },
        { path: 'b', content: LINES },
      ],
      [
        { path: 'a', content: LINES.replace('line 2\n', '') },
        { path: 'b', content: LINES.replace('line 9\n', '') },
        { path: 'c', content: Buffer.from([0, 1]) },
      ],
    );
    for (let cut = 0; cut < output.length; cut++) {
      const parsed = parseGitPatch(output.subarray(0, cut), { truncated: true });
      parsed.forEach((file, index) => {
        expect(file.content.type === 'tooLarge' || file.content).toEqual(file.content.type === 'tooLarge' || files[index]?.content);
      });
    }
  });

  it('keeps files whose section ended before the cut', async () => {
    const { output, files } = await diffOf(
      [{ path: 'a', content: LINES }],
      [
        { path: 'a', content: LINES.replace('line 2\n', '') },
        { path: 'z', content: 'something else\n' },
      ],
    );
    const cut = output.indexOf('diff --git a/z') + 5;
    const parsed = parseGitPatch(output.subarray(0, cut), { truncated: true });
    expect(parsed.map((file) => file.content.type)).toEqual(['plain', 'tooLarge']);
    expect(parsed[0]).toEqual(files[0]);
  });
});

describe('parseGitPatch on malformed output', () => {
  it.each([
    ['patch text without raw records', 'diff --git a/x b/x\n'],
    ['a bad raw record', ':100644 100644 zz M\0x\0\0'],
    ['a missing section', `:100644 100644 ${'1'.repeat(40)} ${'2'.repeat(40)} M\0x\0\0`],
    [
      'a hunk longer than its header',
      `:100644 100644 ${'1'.repeat(40)} ${'2'.repeat(40)} M\0x\0\0diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n+c\n`,
    ],
    [
      'output cut without the truncated flag',
      `:100644 100644 ${'1'.repeat(40)} ${'2'.repeat(40)} M\0x\0\0diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n`,
    ],
  ])('throws SyntaxError for %s', (_, text) => {
    expect(() => parseGitPatch(Buffer.from(text, 'latin1'))).toThrow(SyntaxError);
  });
});
