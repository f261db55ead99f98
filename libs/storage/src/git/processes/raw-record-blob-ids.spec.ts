import { git, gitRaw, makeTempBareRepository, noiseBytes, removeTempDir } from '../write/git-cli.testing.js';
import { openGitRepository } from '../open-git-repository.js';
import type { Oid } from '../objects/oid.js';
import { RawRecordBlobIds } from './raw-record-blob-ids.js';
import { StorageRuntime } from '../storage-runtime.js';

const runtime = new StorageRuntime();

const DIFF_ARGS = ['diff-tree', '-r', '-z', '--raw', '-p', '-M', '-C', '--full-index'];
const ZERO = '0'.repeat(40);

let tmp: string;
let gitDir: string;
let before: Oid;
let after: Oid;

const blob = (content: string | Buffer): string => git(gitDir, ['hash-object', '-w', '--stdin'], { input: content });
const tree = (entries: string[]): string => git(gitDir, ['mktree'], { input: entries.map((line) => `${line}\n`).join('') });
const commit = (treeId: string, message: string, parent?: string): Oid =>
  git(gitDir, ['commit-tree', treeId, ...(parent === undefined ? [] : ['-p', parent]), '-m', message]) as Oid;

/** The oracle: git's own raw records (without `-z`), their non-zero blob ids in record order. */
function rawBlobIds(from: Oid, to: Oid): string[] {
  const ids = new Set<string>();
  for (const line of git(gitDir, ['diff-tree', '-r', '--raw', '-M', '-C', '--full-index', from, to]).split('\n')) {
    const [oldMode, newMode, oldId, newId] = line.split('\t')[0]?.split(' ') ?? [];
    if (oldId !== ZERO && oldMode !== ':160000') ids.add(oldId as string);
    if (newId !== ZERO && newMode !== '160000') ids.add(newId as string);
  }
  return [...ids];
}

beforeAll(async () => {
  ({ tmp, gitDir } = await makeTempBareRepository());
  const library = Array.from({ length: 40 }, (_, index) => `fn item_${index}() -> u32 { ${index} }`).join('\n');
  const submodule = (name: string): string => commit(tree([`100644 blob ${blob(name)}\tfile`]), name);
  const source1 = tree([`100644 blob ${blob(`${library}\n`)}\tlib.rs`]);
  before = commit(
    tree([
      `100644 blob ${blob('hello\n')}\tREADME`,
      `100644 blob ${blob('going away\n')}\tgone.txt`,
      `100644 blob ${blob(`${'moved\n'.repeat(20)}`)}\told name.txt`,
      `100644 blob ${blob('#!/bin/sh\necho hi\n')}\ttool.sh`,
      `160000 commit ${submodule('one')}\tvendor`,
      `040000 tree ${source1}\tsrc`,
    ]),
    'before',
  );
  // A modified file, a deletion, a rename, a copy of a modified file's old content (-C), a mode
  // change, a submodule moved on, a new binary file.
  const source2 = tree([`100644 blob ${blob(`${library}\nfn more() {}\n`)}\tlib.rs`, `100644 blob ${blob(`${library}\n`)}\tcopy.rs`]);
  after = commit(
    tree([
      `100644 blob ${blob('hello, world\n')}\tREADME`,
      `100644 blob ${blob(`${'moved\n'.repeat(20)}`)}\tnew name.txt`,
      `100755 blob ${blob('#!/bin/sh\necho hi\n')}\ttool.sh`,
      `160000 commit ${submodule('two')}\tvendor`,
      `100644 blob ${blob(noiseBytes(3000))}\tdata.bin`,
      `040000 tree ${source2}\tsrc`,
    ]),
    'after',
    before,
  );
});
afterAll(() => removeTempDir(tmp));

describe('RawRecordBlobIds', () => {
  it("finds the blob ids of git's own raw records, however the output is cut into chunks", () => {
    const output = gitRaw(gitDir, [...DIFF_ARGS, before, after]);
    const expected = rawBlobIds(before, after);
    const statuses = git(gitDir, ['diff-tree', '-r', '--raw', '-M', '-C', before, after])
      .split('\n')
      .map((line) => line.split('\t')[0]?.split(' ')[4]?.[0]);
    // The fixture holds every kind of record the reader must step over.
    expect(new Set(statuses)).toEqual(new Set(['M', 'D', 'R', 'C', 'A']));
    expect(expected.length).toBeGreaterThan(6);
    for (const size of [1, 2, 3, 7, 41, 64, 1000, output.length]) {
      const reader = new RawRecordBlobIds(0);
      const answers: Oid[][] = [];
      for (let at = 0; at < output.length; at += size) {
        const ids = reader.push(output.subarray(at, at + size));
        if (ids !== null) answers.push(ids);
      }
      expect(answers).toEqual([expected]);
      // Where the records end (the patch starts), whatever the chunks.
      expect(reader.recordsEnd).toBe(output.indexOf('\0\0diff --git') + 2);
    }
  });

  it('skips a header of the caller, and answers as soon as the records end, before the patches', () => {
    const output = gitRaw(gitDir, [...DIFF_ARGS, before, after]);
    const recordsEnd = output.indexOf('\0\0diff --git') + 2;
    expect(recordsEnd).toBeGreaterThan(2);
    const reader = new RawRecordBlobIds(5);
    expect(reader.push(Buffer.from('head'))).toBeNull();
    expect(reader.recordsEnd).toBeNull();
    expect(reader.push(Buffer.concat([Buffer.from('\0'), output.subarray(0, recordsEnd - 1)]))).toBeNull();
    expect(reader.push(output.subarray(recordsEnd - 1, recordsEnd))).toEqual(rawBlobIds(before, after));
    expect(reader.push(output.subarray(recordsEnd))).toBeNull();
    expect(reader.recordsEnd).toBe(5 + recordsEnd);
  });

  it('gives up quietly on output that is not raw records', () => {
    for (const text of ['diff --git a/x b/x\0', ':100644 100644 nothex nothex M\0x\0\0', 'M\0path\0\0']) {
      const reader = new RawRecordBlobIds(0);
      expect(reader.push(Buffer.from(text))).toBeNull();
      expect(reader.push(Buffer.from('\0\0'))).toBeNull();
    }
  });
});

describe('diffPatch listeners', () => {
  it('tells the blob ids before the patch is in, once, and the patch is unchanged', async () => {
    const repo = openGitRepository(gitDir, { runtime });
    try {
      const told: Array<{ ids: readonly Oid[]; settled: boolean }> = [];
      let settled = false;
      const patch = repo.diffPatch({ from: before, to: after, maxBytes: 1 << 20, onBlobIds: (ids) => told.push({ ids, settled }) });
      const { patch: bytes } = await patch.finally(() => (settled = true));
      expect(bytes.equals(gitRaw(gitDir, [...DIFF_ARGS, before, after]))).toBe(true);
      expect(told).toEqual([{ ids: rawBlobIds(before, after), settled: false }]);
    } finally {
      await repo.close();
    }
  });

  it('tells once that the diff is under way: once the process started, then at once', async () => {
    const repo = openGitRepository(gitDir, { runtime });
    try {
      const told: string[] = [];
      let settled = false;
      // The process starts with this request: told before the patch is in, not during the call.
      const patch = repo.diffPatch({ from: before, to: after, maxBytes: 1 << 20, onQueued: () => told.push(settled ? 'after' : 'before') });
      told.push('called');
      const { patch: bytes } = await patch.finally(() => (settled = true));
      expect(bytes.equals(gitRaw(gitDir, [...DIFF_ARGS, before, after]))).toBe(true);
      expect(told).toEqual(['called', 'before']);
      // Running now: told during the call, once.
      told.length = 0;
      const next = repo.diffPatch({ from: after, to: before, maxBytes: 1 << 20, onQueued: () => told.push('queued') });
      // diffPatch is async: its body up to the first await runs in the call.
      told.push('called');
      await next;
      expect(told).toEqual(['queued', 'called']);
    } finally {
      await repo.close();
    }
  });

  it.each(['onBlobIds', 'onQueued'] as const)('%s is not told for a spawned diff, and one that throws ends nothing', async (listener) => {
    const repo = openGitRepository(gitDir, { runtime });
    try {
      // A root commit's diff is spawned git's: nothing early, the patch as before.
      let told = 0;
      await repo.diffPatch({ from: null, to: before, maxBytes: 1 << 20, [listener]: () => (told += 1) });
      expect(told).toBe(0);
      const failing = (): never => {
        throw new Error('caller failed');
      };
      const again = await repo.diffPatch({ from: before, to: after, maxBytes: 1 << 20, [listener]: failing });
      expect(again.patch.equals(gitRaw(gitDir, [...DIFF_ARGS, before, after]))).toBe(true);
    } finally {
      await repo.close();
    }
  });
});
