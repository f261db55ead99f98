import path from 'node:path';
import { makeTempDir, removeTempDir } from '../write/git-cli.testing.js';
import type { RefEntry } from '../git-repository.js';
import { initBareRepository } from '../write/init-bare-repository.js';
import type { Oid } from '../objects/oid.js';
import { RefListingCache } from './ref-listing-cache.js';
import { listRefs } from './refs.js';
import { repackRepository } from '../write/repack-repository.js';
import { serializeCommit } from '../format/serialize-commit.js';
import { serializeTree } from '../format/serialize-tree.js';
import { SETTLE_MS } from '../objects/stat-stamp.js';
import { updateRefs } from '../write/update-refs.js';
import { writeObject } from '../write/write-object.js';
import { StorageRuntime } from '../storage-runtime.js';

const runtime = new StorageRuntime();

const NS = 'refs/namespaces/z6MkAlice/refs/cobs/xyz.forge.issue';
const OTHER_NS = 'refs/namespaces/z6MkBob/refs/cobs/xyz.forge.issue';

let tmp: string;
let gitDir: string;
let objects: Oid[];
let cache: RefListingCache;
let listings: number;

/** A clock past the settle window: every stamp counts as settled, without waiting for it. */
const settledClock = (): number => Date.now() + SETTLE_MS * 10;
const names = (entries: readonly RefEntry[]): string[] => entries.map((entry) => `${entry.name}=${entry.oid.slice(0, 7)}`);
const ref = (n: number): string => `${NS}/${String(n).padStart(40, '0')}`;

beforeEach(async () => {
  tmp = await makeTempDir();
  gitDir = path.join(tmp, 'repo.git');
  await initBareRepository(gitDir, { userName: 'alice', userEmail: 'alice@z6Mk' });
  const tree = await writeObject(gitDir, 'tree', serializeTree([]));
  objects = await Promise.all(
    [1, 2, 3].map((n) => {
      const person = { name: 'Alice', email: 'alice@example.com', time: 1_700_000_000 + n, offset: '+0000' };
      return writeObject(gitDir, 'commit', serializeCommit({ tree, parents: [], author: person, committer: person, message: `c${n}\n` }));
    }),
  );
  await updateRefs(gitDir, [{ name: ref(1), oid: objects[0] as Oid }]);
  listings = 0;
  cache = new RefListingCache(gitDir, countedListing, settledClock);
});
afterEach(() => removeTempDir(tmp));

function countedListing(prefix: string): ReturnType<typeof listRefs> {
  listings++;
  return listRefs({ gitDir, processes: runtime.processes }, prefix);
}

describe('RefListingCache', () => {
  it('answers the same listing without git while nothing under the prefix changed', async () => {
    const first = await cache.get('refs/namespaces/');
    const second = await cache.get('refs/namespaces/');
    expect(second).toBe(first);
    expect(listings).toBe(1);
    expect(names(second)).toEqual([`${ref(1)}=${(objects[0] as Oid).slice(0, 7)}`]);
  });

  it('shares one listing between concurrent callers', async () => {
    const [a, b] = await Promise.all([cache.get('refs/namespaces/'), cache.get('refs/namespaces/')]);
    expect(a).toBe(b);
    expect(listings).toBe(1);
  });

  it('sees an added ref, a moved ref, a new namespace and a deleted ref on the next call', async () => {
    const change = async (updates: Parameters<typeof updateRefs>[1]): Promise<readonly RefEntry[]> => {
      expect(await cache.get('refs/namespaces/')).toBe(await cache.get('refs/namespaces/'));
      await updateRefs(gitDir, updates);
      return cache.get('refs/namespaces/');
    };
    const short = (oid: Oid | undefined): string => (oid as Oid).slice(0, 7);
    expect(names(await change([{ name: ref(2), oid: objects[1] as Oid }]))).toEqual([`${ref(1)}=${short(objects[0])}`, `${ref(2)}=${short(objects[1])}`]);
    expect(names(await change([{ name: ref(1), oid: objects[2] as Oid }]))[0]).toBe(`${ref(1)}=${short(objects[2])}`);
    expect(await change([{ name: `${OTHER_NS}/${'f'.repeat(40)}`, oid: objects[0] as Oid }])).toHaveLength(3);
    expect(names(await change([{ name: ref(2), delete: true }]))).toEqual([
      `${ref(1)}=${short(objects[2])}`,
      `${OTHER_NS}/${'f'.repeat(40)}=${short(objects[0])}`,
    ]);
  });

  it('follows refs into and out of packed-refs', async () => {
    await updateRefs(gitDir, [{ name: ref(2), oid: objects[1] as Oid }]);
    const loose = await cache.get('refs/namespaces/');
    await repackRepository(gitDir);
    const packed = await cache.get('refs/namespaces/');
    expect(packed).not.toBe(loose);
    expect(names(packed)).toEqual(names(loose));
    await updateRefs(gitDir, [{ name: ref(1), delete: true }]);
    expect(names(await cache.get('refs/namespaces/'))).toEqual([names(loose)[1]]);
    const before = listings;
    await cache.get('refs/namespaces/');
    expect(listings).toBe(before);
  });

  it('never reuses a listing taken while refs had just changed', async () => {
    // The real clock: the ref written in beforeEach changed less than the settle window ago.
    const now = new RefListingCache(gitDir, countedListing);
    await now.get('refs/namespaces/');
    await now.get('refs/namespaces/');
    expect(listings).toBe(2);
  });

  it('does not reuse a listing holding a symbolic ref that points outside the prefix', async () => {
    await updateRefs(gitDir, [
      { name: 'refs/heads/main', oid: objects[0] as Oid },
      { name: 'refs/namespaces/z6MkAlice/refs/heads/main', symbolicTarget: 'refs/heads/main' },
    ]);
    await cache.get('refs/namespaces/');
    await cache.get('refs/namespaces/');
    expect(listings).toBe(2);
  });

  it('keeps prefixes apart', async () => {
    await updateRefs(gitDir, [{ name: 'refs/heads/main', oid: objects[0] as Oid }]);
    expect(names(await cache.get('refs/heads/'))).toEqual([`refs/heads/main=${(objects[0] as Oid).slice(0, 7)}`]);
    expect(await cache.get('refs/namespaces/')).toHaveLength(1);
    expect(await cache.get('refs/tags/')).toEqual([]);
    await cache.get('refs/heads/');
    expect(listings).toBe(3);
  });
});
