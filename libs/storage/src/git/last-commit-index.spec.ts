import { makeTempDir, removeTempDir } from './git-cli.testing.js';
import { buildTrickyHistory } from './history-index.testing.js';
import { IndexBudget } from './index-budget.js';
import { LastCommitIndex } from './last-commit-index.js';
import type { Oid } from './oid.js';

let tmp: string;
let gitDir: string;
let head: Oid;

beforeAll(async () => {
  tmp = await makeTempDir();
  const built = await buildTrickyHistory(tmp, { seed: 4, commits: 40 });
  gitDir = built.gitDir;
  head = built.commits[built.commits.length - 1] as Oid;
});
afterAll(async () => {
  await removeTempDir(tmp);
});

describe('LastCommitIndex', () => {
  it('cannot answer a commit it has not read, and answers once prepare has read its history', async () => {
    const index = new LastCommitIndex(gitDir, new IndexBudget(1024 * 1024));
    expect(index.lastCommitTouching(head, 'a')).toBeUndefined();
    await index.prepare(head);
    expect(index.lastCommitTouching(head, 'a')).not.toBeUndefined();
    expect(index.lastCommitTouching(head, 'no/such/path')).toBeNull();
  });

  it('leaves a history larger than its budget to git', async () => {
    const index = new LastCommitIndex(gitDir, new IndexBudget(1000));
    await index.prepare(head);
    expect(index.lastCommitTouching(head, 'a')).toBeUndefined();
  });

  it('drops the least recently used index of a shared budget', async () => {
    const first = new LastCommitIndex(gitDir, new IndexBudget(1024 * 1024));
    await first.prepare(head);
    // A budget that holds one history but not two.
    const shared = new IndexBudget(Math.ceil(first.size * 1.5));
    const older = new LastCommitIndex(gitDir, shared);
    const newer = new LastCommitIndex(gitDir, shared);
    await older.prepare(head);
    await newer.prepare(head);
    expect(newer.lastCommitTouching(head, 'a')).not.toBeUndefined();
    expect(older.lastCommitTouching(head, 'a')).toBeUndefined();
  });
});
