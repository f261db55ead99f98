import path from 'node:path';
import { DIFF_TREE_OPTIONS } from './diff-patch.js';
import { assembleExactMoves, EXACT_MOVES_WORTH_SPLITTING, planExactMoves, WITHOUT_MOVES } from './exact-moves.js';
import { dateEnv, git, gitRaw, makeTempBareRepository, removeTempDir } from '../write/git-cli.testing.js';
import { readGitProcessCounts } from '../processes/git-process-counts.js';
import type { Oid } from '../objects/oid.js';
import { openGitRepository } from '../open-git-repository.js';
import { RawRecordBlobIds } from '../processes/raw-record-blob-ids.js';
import { StorageRuntime } from '../storage-runtime.js';

const runtime = new StorageRuntime();

interface FileSpec {
  readonly path: string;
  readonly content: string | Buffer;
  readonly mode?: string;
}

let tmp: string;
let gitDir: string;
let time = 1_700_000_000;

beforeAll(async () => ({ tmp, gitDir } = await makeTempBareRepository()));
afterAll(() => removeTempDir(tmp));

/** A commit whose tree holds exactly `files` (nested folders made by git's index). */
function commitOf(files: readonly FileSpec[], parent?: Oid): Oid {
  const index = path.join(tmp, `index-${time}`);
  const lines = files.map((file) => `${file.mode ?? '100644'} ${git(gitDir, ['hash-object', '-w', '--stdin'], { input: file.content })}\t${file.path}\n`);
  git(gitDir, ['update-index', '--add', '--index-info'], { input: lines.join(''), env: { GIT_INDEX_FILE: index } });
  const tree = git(gitDir, ['write-tree'], { env: { GIT_INDEX_FILE: index } });
  time += 100;
  return git(gitDir, ['commit-tree', tree, '-m', 'c', ...(parent === undefined ? [] : ['-p', parent])], { env: dateEnv(time) }) as Oid;
}

/** `count` distinct small files under `folder`. */
function folder(name: string, count: number, options: { skip?: number } = {}): FileSpec[] {
  return Array.from({ length: count }, (_, index) => ({ path: `${name}/file-${index + (options.skip ?? 0)}.txt`, content: `file ${index}\nsecond line\n` }));
}

const SOURCE = Array.from({ length: 40 }, (_, index) => `source line ${index}\n`).join('');

/** Files around the moves: modified, copied from a modified file, mode and type changes, binary, added. */
const BEFORE: FileSpec[] = [
  { path: 'src.txt', content: SOURCE },
  { path: 'run.sh', content: 'echo\n' },
  { path: 'link-to-be.txt', content: 'a file first\n' },
  { path: 'data.bin', content: Buffer.from([0, 1, 2, 3, 0, 9]) },
  { path: 'keep.txt', content: 'kept\n' },
];
const AFTER: FileSpec[] = [
  { path: 'src.txt', content: `${SOURCE}one more\n` },
  { path: 'copy.txt', content: SOURCE },
  { path: 'run.sh', content: 'echo\n', mode: '100755' },
  { path: 'link-to-be.txt', content: 'src.txt', mode: '120000' },
  { path: 'data.bin', content: Buffer.from([0, 1, 2, 3, 0, 10]) },
  { path: 'keep.txt', content: 'kept\n' },
  { path: 'added.txt', content: 'new\n' },
];

/** git's whole output for the range, and the raw section it starts with. */
function wholeDiff(from: Oid, to: Oid): { whole: Buffer; records: Buffer } {
  const whole = gitRaw(gitDir, [...DIFF_TREE_OPTIONS, from, to]);
  const reader = new RawRecordBlobIds(0);
  reader.push(whole);
  return { whole, records: whole.subarray(0, reader.recordsEnd ?? 0) };
}

describe('exact moves', () => {
  it('gives git whole output byte for byte from the output without renames and copies', () => {
    const from = commitOf([...BEFORE, ...folder('old', 70)]);
    const to = commitOf([...AFTER, ...folder('new/place', 70)], from);
    const { whole, records } = wholeDiff(from, to);
    // The fixture has what it claims: exact renames and a copy, a type change, a mode change.
    expect(records.toString('latin1')).toMatch(/ R100\0old\/file-0\.txt\0new\/place\/file-0\.txt\0/);
    expect(records.toString('latin1')).toMatch(/ C100\0src\.txt\0copy\.txt\0/);
    expect(records.toString('latin1')).toMatch(/ T\0link-to-be\.txt\0/);
    const plan = planExactMoves(records);
    expect(plan).not.toBeNull();
    const filtered = gitRaw(gitDir, [...DIFF_TREE_OPTIONS, WITHOUT_MOVES, from, to]);
    expect(assembleExactMoves(plan!, filtered)?.equals(whole)).toBe(true);
    // Output that does not line up is refused.
    expect(assembleExactMoves(plan!, filtered.subarray(0, filtered.lastIndexOf('\ndiff --git ') + 1))).toBeNull();
    expect(assembleExactMoves(plan!, Buffer.concat([filtered, Buffer.from('diff --git a/x b/x\n')]))).toBeNull();
  });

  it.each([
    // With the copy of src.txt, one exact move short.
    ['too few exact moves', () => folder('new', EXACT_MOVES_WORTH_SPLITTING - 2), () => folder('old', EXACT_MOVES_WORTH_SPLITTING - 2)],
    [
      'a rename with changes among them',
      () => [...folder('new', 69), { path: 'new/changed.txt', content: `${SOURCE}changed\n` }],
      () => [...folder('old', 69), { path: 'old/changed.txt', content: SOURCE }],
    ],
    [
      'a path that is not plain ASCII among them',
      () => [...folder('new', 69), { path: 'new/caf\u00e9.txt', content: 'quoted\n' }],
      () => [...folder('old', 69), { path: 'old/caf\u00e9.txt', content: 'quoted\n' }],
    ],
  ])('leaves the diff to git with %s', (_, after: () => FileSpec[], before: () => FileSpec[]) => {
    const from = commitOf([...BEFORE, ...before()]);
    const to = commitOf([...AFTER, ...after()], from);
    expect(planExactMoves(wholeDiff(from, to).records)).toBeNull();
  });

  it('answers a diff page with git whole output through the long-lived processes, no git spawned for it', async () => {
    const from = commitOf([...BEFORE, ...folder('before', 80)]);
    const to = commitOf([...AFTER, ...folder('after', 80)], from);
    const small = commitOf([...AFTER, ...folder('after', 80), { path: 'one-more.txt', content: '1\n' }], to);
    const repository = openGitRepository(gitDir, { runtime });
    const maxBytes = 8 * 1024 * 1024;
    try {
      // The first diff starts the long-lived process; the one after it is measured.
      await repository.diffPatch({ from: to, to: small, maxBytes });
      const before = readGitProcessCounts();
      const answer = await repository.diffPatch({ from, to, maxBytes });
      expect(answer.truncated).toBe(false);
      expect(answer.patch.equals(wholeDiff(from, to).whole)).toBe(true);
      // No git of its own; the diff without renames and copies started (long-lived processes
      // are counted with cat-file).
      const after = readGitProcessCounts();
      expect([after.command.spawned, after['cat-file'].spawned]).toEqual([before.command.spawned, before['cat-file'].spawned + 1]);
      // The stopped process starts again for the next diff.
      const next = await repository.diffPatch({ from: to, to: small, maxBytes });
      expect(next.patch.equals(wholeDiff(to, small).whole)).toBe(true);
      // A commit that only moves files needs no second diff at all.
      const moved = commitOf([...AFTER, ...folder('moved', 80), { path: 'one-more.txt', content: '1\n' }], small);
      expect(planExactMoves(wholeDiff(small, moved).records)?.keptRecords).toHaveLength(0);
      const beforeMove = readGitProcessCounts();
      const onlyMoves = await repository.diffPatch({ from: small, to: moved, maxBytes });
      expect(onlyMoves.patch.equals(wholeDiff(small, moved).whole)).toBe(true);
      const afterMove = readGitProcessCounts();
      expect([afterMove.command.spawned, afterMove['cat-file'].spawned]).toEqual([beforeMove.command.spawned, beforeMove['cat-file'].spawned]);
    } finally {
      await repository.close();
    }
  });
});
