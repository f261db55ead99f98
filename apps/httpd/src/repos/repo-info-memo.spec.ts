import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RepoInfo } from '@forge-httpd/api-types';
import type { Rid } from '@forge-httpd/identity';
import { SETTLE_MS } from '@forge-httpd/storage';
import { type BuiltRepoInfo, RepoInfoMemo } from './repo-info-memo.js';

const RID = 'rad:z3gqcJUoA1n9HaHKufZs5FCSGazv5' as Rid;
const NID = 'z6MkrLMMsiPWUcNPHcRajuMi9mDfYckSoJyPwwnknocNYPm7';

let dir: string;
/** The clock of the settle rule: a fixed distance ahead of the file times, moved by tests. */
let ahead: number;
let memo: RepoInfoMemo;
let builds: number;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'forge-memo-'));
  await mkdir(join(dir, 'refs/rad'), { recursive: true });
  await mkdir(join(dir, `refs/namespaces/${NID}/refs/heads`), { recursive: true });
  await writeRef('HEAD', 'ref: refs/heads/main');
  await writeRef('refs/rad/id', 'a'.repeat(40));
  ahead = SETTLE_MS + 1000;
  memo = new RepoInfoMemo({ gitDirOf: () => dir, now: () => Date.now() + ahead });
  builds = 0;
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** Writes a ref the way git does: a lock file renamed over the ref. */
async function writeRef(name: string, content: string): Promise<void> {
  await writeFile(join(dir, `${name}.lock`), `${content}\n`);
  await rename(join(dir, `${name}.lock`), join(dir, name));
}

/** The next turn of the event loop: stamps are shared within one turn. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A build that counts its calls; the info is told apart by the build number. */
function build(complete = true): () => Promise<BuiltRepoInfo | null> {
  return () => {
    builds += 1;
    return Promise.resolve({ info: { rid: RID, seeding: builds } as unknown as RepoInfo, complete });
  };
}

async function get(next = build()): Promise<RepoInfo | null> {
  await nextTurn();
  return memo.get(RID, next);
}

describe('RepoInfoMemo', () => {
  it('reuses an info while the repository is unchanged', async () => {
    const first = await get();
    expect(await get()).toBe(first);
    expect(builds).toBe(1);
  });

  it.each([
    ['a ref moves', () => writeRef('refs/rad/id', 'b'.repeat(40))],
    ['a ref appears in a new nested folder', () => mkdir(join(dir, `refs/namespaces/${NID}/refs/cobs/xyz.radicle.issue`), { recursive: true })],
    ['a peer ref is written', () => writeRef(`refs/namespaces/${NID}/refs/heads/main`, 'c'.repeat(40))],
    ['packed-refs changes', () => writeRef('packed-refs', '# pack-refs with: peeled fully-peeled sorted')],
    ['HEAD names another branch', () => writeRef('HEAD', 'ref: refs/heads/dev')],
    ['the repository is removed', () => rm(join(dir, 'refs'), { recursive: true })],
  ])('builds again when %s', async (_, change) => {
    await get();
    await change();
    expect(await get()).toMatchObject({ seeding: 2 });
    expect(await get()).toMatchObject({ seeding: 2 });
  });

  it('never keeps an info read while a stamped file had just changed', async () => {
    // The clock says the files were written just now: their times may not move on a next change.
    ahead = 0;
    await get();
    await get();
    expect(builds).toBe(2);
    ahead = SETTLE_MS + 1000;
    await get();
    await get();
    expect(builds).toBe(3);
  });

  it('keeps neither an incomplete info nor a missing one', async () => {
    await get(build(false));
    await get(build(false));
    await get(() => Promise.resolve(null));
    expect(await get(() => Promise.resolve(null))).toBeNull();
    expect(builds).toBe(2);
  });

  it('shares one build among concurrent callers and rethrows its failure without keeping it', async () => {
    await nextTurn();
    const [a, b] = await Promise.all([memo.get(RID, build()), memo.get(RID, build())]);
    expect(a).toBe(b);
    expect(builds).toBe(1);
    await writeRef('refs/rad/id', 'd'.repeat(40));
    await nextTurn();
    await expect(memo.get(RID, () => Promise.reject(new Error('unreadable')))).rejects.toThrow('unreadable');
    expect(await get()).toMatchObject({ seeding: 2 });
  });

  it('drops the least recently used info beyond its capacity', async () => {
    const other = 'rad:z2u2CP3ZJzB7ZqE8jHrau19yjcfCQ' as Rid;
    const small = new RepoInfoMemo({ gitDirOf: () => dir, now: () => Date.now() + ahead, capacity: 1 });
    await nextTurn();
    await small.get(RID, build());
    await small.get(other, build());
    await nextTurn();
    await small.get(other, build());
    await small.get(RID, build());
    expect(builds).toBe(3);
  });
});
