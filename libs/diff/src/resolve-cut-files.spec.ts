import { execGit } from '@forge-httpd/builder/scratch';
import { parseGitPatch } from './parse-git-patch.js';
import { parseNumstat } from './parse-numstat.js';
import { resolveCutFiles } from './resolve-cut-files.js';
import { LINES, useScratchRepos } from './scratch-repos.testing.js';
import type { DiffContent } from './types.js';

const { history } = useScratchRepos();

/** Every kind of change the server meets: plain, rename with edits, copy, binary, type change, mode change, empty. */
async function mixedDiff(): Promise<{ output: Buffer; numstat: Buffer }> {
  const { gitDir, ids } = await history([
    {
      message: 'before\n',
      time: 1_700_000_000,
      changes: [
        { path: 'a.txt', content: LINES },
        { path: 'old name', content: LINES },
        { path: 'logo.bin', content: Buffer.from([0, 1, 2]) },
        { path: 'kind', content: 'was a file\nwith two lines\n' },
        { path: 'run.sh', content: 'echo\n' },
        { path: 'same', content: LINES },
      ],
    },
    {
      message: 'after\n',
      time: 1_700_000_100,
      changes: [
        { path: 'a.txt', content: LINES.replace('line 3\n', 'line three\n') },
        { path: 'old name', delete: true },
        { path: 'new name', content: `${LINES}extra\n` },
        { path: 'logo.bin', content: Buffer.from([0, 1, 3]) },
        { path: 'kind', link: 'a.txt' },
        { path: 'run.sh', content: 'echo\n', kind: 'executable' },
        { path: 'empty', content: '' },
        { path: 'same moved', content: LINES },
        { path: 'same', delete: true },
      ],
    },
  ]);
  const [from = '', to = ''] = ids;
  const common = ['-r', '-z', '-M', '-C', '--no-color', '--no-ext-diff', '--no-textconv', from, to];
  const output = await execGit({ gitDir, args: ['diff-tree', '--raw', '-p', '--full-index', '--src-prefix=a/', '--dst-prefix=b/', ...common] });
  const numstat = await execGit({ gitDir, args: ['diff-tree', '--numstat', ...common] });
  return { output, numstat };
}

/** What a cut file may become, given its content in the uncut diff. */
function cutFormOf(content: DiffContent): DiffContent {
  if (content.type !== 'plain' || content.hunks.length === 0) return content;
  return { type: 'plain', hunks: [], stats: content.stats, eof: 'noneMissing', tooLarge: true };
}

describe('resolveCutFiles', () => {
  it('gives every file past any cut git numstat counts, or the binary / empty content git reports', async () => {
    const { output, numstat } = await mixedDiff();
    const whole = parseGitPatch(output);
    expect(new Set(whole.map((file) => file.content.type))).toEqual(new Set(['plain', 'binary', 'empty']));
    expect(whole.some((file) => file.typeChange)).toBe(true);
    const records = parseNumstat(numstat);
    for (let cut = 0; cut < output.length; cut += 7) {
      const resolved = resolveCutFiles(parseGitPatch(output.subarray(0, cut), { truncated: true }), records);
      resolved.forEach((file, index) => {
        const original = whole[index]?.content as DiffContent;
        expect([original, cutFormOf(original)]).toContainEqual(file.content);
      });
    }
  });

  it('leaves an uncut diff unchanged', async () => {
    const { output, numstat } = await mixedDiff();
    const whole = parseGitPatch(output);
    expect(resolveCutFiles(whole, parseNumstat(numstat))).toEqual(whole);
  });
});

describe('parseNumstat', () => {
  it('reads counts, binary markers and rename pairs, and drops a record cut short', () => {
    const text = '1\t2\ta b\0-\t-\tlogo.bin\x003\t0\t\0old\0new\0' + '4\t4\tcut';
    expect(parseNumstat(Buffer.from(text))).toEqual([
      { stats: { additions: 1, deletions: 2 }, oldPath: Buffer.from('a b'), newPath: Buffer.from('a b') },
      { stats: null, oldPath: Buffer.from('logo.bin'), newPath: Buffer.from('logo.bin') },
      { stats: { additions: 3, deletions: 0 }, oldPath: Buffer.from('old'), newPath: Buffer.from('new') },
    ]);
  });
});
