import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readGitProcessCounts } from '../processes/git-process-counts.js';
import { gitRaw, makeTempDir, removeTempDir } from '../write/git-cli.testing.js';
import { lastCommitTouching } from './history.js';
import { buildTrickyHistory, TRICKY_PATHS } from './history-index.testing.js';
import { IndexBudget } from '../limits/index-budget.js';
import { LastCommitIndex } from './last-commit-index.js';
import { commitChangesSize } from './commit-changes.js';
import type { Oid } from '../objects/oid.js';
import { StorageRuntime } from '../storage-runtime.js';

const runtime = new StorageRuntime();

let tmp: string;
let gitDir: string;
let head: Oid;
let commits: Oid[];

beforeAll(async () => {
  tmp = await makeTempDir();
  const built = await buildTrickyHistory(tmp, { seed: 4, commits: 40 });
  gitDir = built.gitDir;
  commits = built.commits;
  head = built.commits[built.commits.length - 1] as Oid;
});
afterAll(async () => {
  await removeTempDir(tmp);
});

describe('LastCommitIndex', () => {
  it('cannot answer a commit it has not read, and answers once prepare has read its history', async () => {
    const index = new LastCommitIndex({ gitDir: gitDir, processes: runtime.processes }, new IndexBudget(1024 * 1024));
    expect(index.lastCommitTouching(head, 'a')).toBeUndefined();
    await index.prepare(head);
    expect(index.lastCommitTouching(head, 'a')).not.toBeUndefined();
    expect(index.lastCommitTouching(head, 'no/such/path')).toBeNull();
  });

  it('leaves a history larger than its budget to git', async () => {
    const index = new LastCommitIndex({ gitDir: gitDir, processes: runtime.processes }, new IndexBudget(1000));
    await index.prepare(head);
    expect(index.lastCommitTouching(head, 'a')).toBeUndefined();
  });

  it('drops the least recently used index of a shared budget', async () => {
    const first = new LastCommitIndex({ gitDir: gitDir, processes: runtime.processes }, new IndexBudget(1024 * 1024));
    await first.prepare(head);
    // A budget that holds one history but not two.
    const shared = new IndexBudget(Math.ceil(first.size * 1.5));
    const older = new LastCommitIndex({ gitDir: gitDir, processes: runtime.processes }, shared);
    const newer = new LastCommitIndex({ gitDir: gitDir, processes: runtime.processes }, shared);
    await older.prepare(head);
    await newer.prepare(head);
    expect(newer.lastCommitTouching(head, 'a')).not.toBeUndefined();
    expect(older.lastCommitTouching(head, 'a')).toBeUndefined();
  });

  describe('kept across restarts', () => {
    /** Every path's answer from every fifth commit (undefined where the index cannot answer). */
    const answersOf = (index: LastCommitIndex): (Oid | null | undefined)[] =>
      commits.filter((_, at) => at % 5 === 4).flatMap((from) => TRICKY_PATHS.map((file) => index.lastCommitTouching(from, file)));
    const gitCommands = (): number => readGitProcessCounts().command.spawned;

    it('writes a history it read, and a later index reads it back from the file without git, answering as git does', async () => {
      const file = path.join(tmp, 'kept', 'tricky.bin');
      const first = new LastCommitIndex({ gitDir: gitDir, processes: runtime.processes }, new IndexBudget(1024 * 1024), { file, minCommits: 10 });
      await first.prepare(head);
      await first.flush();
      expect((await stat(file)).size).toBeGreaterThan(40 * 20);

      const later = new LastCommitIndex({ gitDir: gitDir, processes: runtime.processes }, new IndexBudget(1024 * 1024), { file, minCommits: 10 });
      expect(later.lastCommitTouching(head, 'a')).toBeUndefined();
      const before = gitCommands();
      await later.prepare(head);
      expect(gitCommands()).toBe(before);
      const answers = answersOf(later);
      expect(answers).toEqual(answersOf(first));
      expect(answers).not.toContain(undefined);
      const fromGit: (Oid | null)[] = [];
      for (const from of commits.filter((_, at) => at % 5 === 4))
        for (const file of TRICKY_PATHS) fromGit.push(await lastCommitTouching({ gitDir, processes: runtime.processes }, { from, path: file }));
      expect(answers).toEqual(fromGit);
    });

    it('reads only the newer part from git when the file holds an older tip, then writes the whole again', async () => {
      const file = path.join(tmp, 'kept', 'older.bin');
      const middle = commits[20] as Oid;
      const older = new LastCommitIndex({ gitDir: gitDir, processes: runtime.processes }, new IndexBudget(1024 * 1024), { file, minCommits: 10 });
      await older.prepare(middle);
      await older.flush();
      const olderSize = (await stat(file)).size;

      const later = new LastCommitIndex({ gitDir: gitDir, processes: runtime.processes }, new IndexBudget(1024 * 1024), { file, minCommits: 10 });
      await later.prepare(head);
      expect(later.lastCommitTouching(middle, 'a')).toBe(older.lastCommitTouching(middle, 'a'));
      expect(later.lastCommitTouching(head, 'a')).not.toBeUndefined();
      await later.flush();
      expect((await stat(file)).size).toBeGreaterThan(olderSize);
    });

    it('reads from git instead of a damaged file or one over its budget, and writes nothing for a history under the minimum', async () => {
      const file = path.join(tmp, 'kept', 'damaged.bin');
      const first = new LastCommitIndex({ gitDir: gitDir, processes: runtime.processes }, new IndexBudget(1024 * 1024), { file, minCommits: 10 });
      await first.prepare(head);
      await first.flush();
      const bytes = await readFile(file);
      bytes.writeUInt8(bytes.readUInt8(bytes.length >> 1) ^ 0xff, bytes.length >> 1);
      await writeFile(file, bytes);

      const later = new LastCommitIndex({ gitDir: gitDir, processes: runtime.processes }, new IndexBudget(1024 * 1024), { file, minCommits: 10 });
      const before = gitCommands();
      await later.prepare(head);
      expect(gitCommands()).toBeGreaterThan(before);
      expect(answersOf(later)).toEqual(answersOf(first));

      const tooSmall = new LastCommitIndex({ gitDir: gitDir, processes: runtime.processes }, new IndexBudget(first.size - 1), { file, minCommits: 10 });
      await later.flush();
      const beforeSmall = gitCommands();
      await tooSmall.prepare(head);
      expect(gitCommands()).toBeGreaterThan(beforeSmall);
      expect(tooSmall.lastCommitTouching(head, 'a')).toBeUndefined();

      const unkept = path.join(tmp, 'kept', 'unkept.bin');
      const small = new LastCommitIndex({ gitDir: gitDir, processes: runtime.processes }, new IndexBudget(1024 * 1024), {
        file: unkept,
        minCommits: commits.length + 1,
      });
      await small.prepare(head);
      await small.flush();
      await expect(stat(unkept)).rejects.toMatchObject({ code: 'ENOENT' });
    });
  });

  it("holds of a merge's change against a later parent only what can decide an answer, and answers every path and folder as git does", async () => {
    // A topic branched from an old base, merged after the mainline changed a whole folder: the
    // merge differs from the topic in all of that folder, which no question can reach (the
    // merge is TREESAME to its first parent there).
    const dir = path.join(tmp, 'topic-merge.git');
    gitRaw(tmp, ['init', '--quiet', '--bare', dir]);
    const files = (prefix: string, count: number, version: string): string[] =>
      Array.from({ length: count }, (_, i) => [`M 100644 inline ${prefix}/f${i}`, `data ${version.length}`, version]).flat();
    const commit = (mark: number, time: number, parents: number[], edits: string[]): string[] => [
      `commit refs/heads/b${mark}`,
      `mark :${mark}`,
      `committer A <a@example.com> ${time} +0000`,
      'data 0',
      ...(parents[0] === undefined ? [] : [`from :${parents[0]}`]),
      ...parents.slice(1).map((parent) => `merge :${parent}`),
      ...edits,
    ];
    const script = [
      ...commit(1, 1000, [], [...files('wide', 200, 'v1'), ...files('topic', 2, 'v1'), 'M 100644 inline top', 'data 2', 'v1']),
      ...commit(2, 1010, [1], ['M 100644 inline topic/f0', 'data 2', 'v2']),
      ...commit(3, 1020, [1], [...files('wide', 200, 'v3'), 'M 100644 inline topic/f1', 'data 2', 'v3']),
      ...commit(4, 1030, [3, 2], ['M 100644 inline topic/f0', 'data 2', 'v2']),
    ];
    gitRaw(dir, ['fast-import', '--quiet', '--date-format=raw'], { input: `${script.join('\n')}\n` });
    const merge = gitRaw(dir, ['rev-parse', 'refs/heads/b4']).toString().trim() as Oid;
    const index = new LastCommitIndex({ gitDir: dir, processes: runtime.processes }, new IndexBudget(1024 * 1024));
    await index.prepare(merge);
    // The three commits change 203, 1 and 201 paths, the merge 1 against its first parent (topic/f0).
    // Against the topic it changed 201 (wide/* and topic/f1): held as the one folder that can
    // decide an answer there, topic.
    expect(index.size).toBe(commitChangesSize({ commits: 4, changes: 203 + 1 + 201 + 1 + 1 }));
    const questions = ['top', 'wide', 'wide/f0', 'wide/f199', 'topic', 'topic/f0', 'topic/f1'];
    for (const question of questions) {
      const fromGit = await lastCommitTouching({ gitDir: dir, processes: runtime.processes }, { from: merge, path: question });
      expect([question, index.lastCommitTouching(merge, question)]).toEqual([question, fromGit]);
    }
  });
});
