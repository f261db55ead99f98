import { BusyError } from '@forge-httpd/identity';
import { gitRaw, makeTempDir, removeTempDir } from './write/git-cli.testing.js';
import type { GitRepository } from './git-repository.js';
import { buildTrickyHistory, TRICKY_PATHS } from './history/history-index.testing.js';
import type { Oid } from './objects/oid.js';
import { BUSY_READS_FOR_A_PROCESS, openGitRepository } from './open-git-repository.js';
import { readGitProcessCounts } from './processes/git-process-counts.js';
import { openCommitRange, readInChunks, walkCommitsUntil, type WalkBounds } from './history/walk-commits-until.js';
import { waitUntil } from '../wait-until.testing.js';
import { OidList } from './objects/oid-list.js';
import { HeldCommitIds } from './history/held-commit-ids.js';
import { StorageRuntime } from './storage-runtime.js';

const runtime = new StorageRuntime();
const longWalks = runtime.history.longWalks;
const walkBounds = (heldCommitIds: HeldCommitIds = runtime.history.heldCommitIds): WalkBounds => ({ longWalks, heldCommitIds });

let tmp: string;

beforeAll(async () => {
  tmp = await makeTempDir();
});
afterAll(async () => {
  await removeTempDir(tmp);
});

const revList = (gitDir: string, args: readonly string[]): string[] =>
  gitRaw(gitDir, ['--literal-pathspecs', 'rev-list', ...args])
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '');

describe.each([1, 2])('on a random history with merges, equal times and clock skew (seed %d)', (seed) => {
  let gitDir: string;
  let commits: Oid[];
  let repo: GitRepository;

  beforeAll(async () => {
    ({ gitDir, commits } = await buildTrickyHistory(tmp, { seed, commits: 90 }));
    repo = openGitRepository(gitDir, { runtime });
  });
  afterAll(() => repo.close());

  it('lists the commits of a range exactly as rev-list orders them, up to the stop commit', async () => {
    for (const [at, from] of commits.entries()) {
      if (at % 3 !== 0) continue;
      const walk = revList(gitDir, [from]);
      const stops = [from, walk[1], walk[Math.floor(walk.length / 2)], commits[commits.length - 1], walk[walk.length - 1]];
      for (const stop of stops.filter((oid): oid is string => oid !== undefined)) {
        const until = walk.indexOf(stop);
        const expected = until < 0 ? walk : walk.slice(0, until);
        const listed = await repo.walkCommitsUntil({ from, stop: stop as Oid });
        expect(listed.map((commit) => commit.oid)).toEqual(expected);
        // Past the cat-file walk's limit rev-list goes on from where it stopped.
        if (at % 12 !== 0) continue;
        const continued = await walkCommitsUntil(repo, { from, stop: stop as Oid }, 3, walkBounds());
        expect(continued.map((commit) => commit.oid)).toEqual(expected);
      }
    }
  });

  it('lists first pages of history as `rev-list --skip --max-count` does, walked without a process', async () => {
    // Repacked by git (newest objects whole), every commit is read from the files.
    const packed = openGitRepository(gitDir, { runtime, threadLoad: { isBusy: () => false } });
    gitRaw(gitDir, ['repack', '-a', '-d', '-q']);
    try {
      const spawned = (): number => Object.values(readGitProcessCounts()).reduce((sum, kind) => sum + kind.spawned, 0);
      const before = spawned();
      for (const from of commits.filter((_, at) => at % 4 === 0)) {
        for (const [skip, maxCount] of [
          [0, 30],
          [0, 1],
          [5, 10],
          [20, 200],
        ] as const) {
          const listed = await packed.walkCommits({ from, skip, maxCount });
          expect(listed.map((commit) => commit.oid)).toEqual(revList(gitDir, [`--skip=${skip}`, `--max-count=${maxCount}`, from]));
        }
      }
      expect(spawned()).toBe(before);
    } finally {
      await packed.close();
    }
  });

  it('walks a first page here however busy the thread is, with no process started', async () => {
    const spawned = (): number => Object.values(readGitProcessCounts()).reduce((sum, kind) => sum + kind.spawned, 0);
    const from = commits[commits.length - 1] as Oid;
    const expected = revList(gitDir, ['--max-count=30', from]);
    // Other reads of a busy thread go to cat-file; a walk's steps would each be a round trip.
    const busy = openGitRepository(gitDir, { runtime, threadLoad: { isBusy: () => true } });
    try {
      const before = spawned();
      expect((await busy.walkCommits({ from, maxCount: 30 })).map((commit) => commit.oid)).toEqual(expected);
      expect((await busy.walkCommits({ from, skip: 30, maxCount: 30 })).map((commit) => commit.oid)).toEqual(
        revList(gitDir, ['--skip=30', '--max-count=30', from]),
      );
      expect(spawned()).toBe(before);
    } finally {
      await busy.close();
    }
  });

  it('starts a cat-file for a busy thread only once a repository is read a lot', async () => {
    const catFiles = (): number => readGitProcessCounts()['cat-file'].spawned;
    const busy = openGitRepository(gitDir, { runtime, threadLoad: { isBusy: () => true } });
    try {
      const before = catFiles();
      // A listed repository's few reads (its head, its identity) stay in process.
      for (const oid of commits.slice(0, BUSY_READS_FOR_A_PROCESS - 1)) expect((await busy.readObjectInfo(oid))?.type).toBe('commit');
      expect(catFiles()).toBe(before);
      // One more read in the same second: git takes them from here.
      for (const oid of commits.slice(0, 8)) expect((await busy.readCommit(oid))?.oid).toBe(oid);
      expect(catFiles()).toBe(before + 1);
    } finally {
      await busy.close();
    }
  });

  it('runs at most two long walks at once; the others wait and list the same', async () => {
    let running = 0;
    let most = 0;
    // The real repository, counted: how many rev-list continuations run at the same time.
    const counted = {
      readCommit: (oid: Oid) => repo.readCommit(oid),
      readCommits: (oids: readonly Oid[]) => repo.readCommits(oids),
      listCommitOids: async (options: Parameters<GitRepository['listCommitOids']>[0]) => {
        running += 1;
        most = Math.max(most, running);
        try {
          return await repo.listCommitOids(options);
        } finally {
          running -= 1;
        }
      },
    };
    const from = commits[commits.length - 1] as Oid;
    const never = '0'.repeat(40) as Oid;
    const lists = await Promise.all(Array.from({ length: 6 }, () => walkCommitsUntil(counted, { from, stop: never }, 3, walkBounds())));
    expect(most).toBe(2);
    for (const list of lists) expect(list.map((commit) => commit.oid)).toEqual(revList(gitDir, [from]));
  });

  it('reads the rest of a long range in chunks when asked, holding no slot in between, nothing after the reader stops', async () => {
    const from = commits[commits.length - 1] as Oid;
    const expected = revList(gitDir, [from]);
    let reads = 0;
    const counted = {
      readCommit: (oid: Oid) => {
        reads += 1;
        return repo.readCommit(oid);
      },
      readCommits: (oids: readonly Oid[]) => {
        reads += oids.length;
        return repo.readCommits(oids);
      },
      listCommitOids: (options: Parameters<GitRepository['listCommitOids']>[0]) => repo.listCommitOids(options),
    };
    const range = await openCommitRange(counted, { from, stop: '0'.repeat(40) as Oid }, 3, walkBounds());
    expect(range.first.map((commit) => commit.oid)).toEqual(expected.slice(0, 3));
    expect(range.rest.toArray()).toEqual(expected.slice(3));
    const afterOpen = reads;
    const seen: string[] = range.first.map((commit) => commit.oid);
    for await (const chunk of readInChunks(counted, range.rest, longWalks, { size: 10 })) {
      expect(chunk.length).toBeLessThanOrEqual(10);
      expect(longWalks.pending).toBe(0);
      seen.push(...chunk.map((commit) => commit.oid));
      if (seen.length >= 23) break;
    }
    expect(seen).toEqual(expected.slice(0, 23));
    expect(reads - afterOpen).toBe(20);
    const whole = await openCommitRange(repo, { from, stop: expected[40] as Oid }, 3, walkBounds());
    expect([...whole.first.map((commit) => commit.oid), ...whole.rest.toArray()]).toEqual(expected.slice(0, 40));
    const near = await openCommitRange(repo, { from, stop: expected[2] as Oid }, 3, walkBounds());
    expect(near.rest.length).toBe(0);
    expect(near.first.map((commit) => commit.oid)).toEqual(expected.slice(0, 2));
    for (const opened of [range, whole, near]) opened.release();
  });

  it('counts the ids of open long ranges against their bound until each is released', async () => {
    const from = commits[commits.length - 1] as Oid;
    const never = '0'.repeat(40) as Oid;
    const expected = revList(gitDir, [from]);
    const probe = await openCommitRange(repo, { from, stop: never }, 3, walkBounds(new HeldCommitIds()));
    const oneRange = probe.rest.retainedBytes;
    expect(oneRange).toBeGreaterThanOrEqual((expected.length - 3) * 20);
    // Room for one long range, not two.
    const held = new HeldCommitIds(oneRange + 20);
    const first = await openCommitRange(repo, { from, stop: never }, 3, walkBounds(held));
    expect(held.bytes).toBe(oneRange);
    await expect(openCommitRange(repo, { from, stop: never }, 3, walkBounds(held))).rejects.toBeInstanceOf(BusyError);
    await expect(walkCommitsUntil(repo, { from, stop: never }, 3, walkBounds(held))).rejects.toBeInstanceOf(BusyError);
    // A near range holds no ids: it is never refused.
    const near = await openCommitRange(repo, { from, stop: expected[2] as Oid }, 3, walkBounds(held));
    expect(near.first).toHaveLength(2);
    near.release();
    first.release();
    first.release();
    expect(held.bytes).toBe(0);
    const listed = await walkCommitsUntil(repo, { from, stop: never }, 3, walkBounds(held));
    expect(listed.map((commit) => commit.oid)).toEqual(expected);
    expect(held.bytes).toBe(0);
    // A history longer than the whole bound is still let in when nothing else is held.
    const tiny = new HeldCommitIds(1);
    const alone = await openCommitRange(repo, { from, stop: never }, 3, walkBounds(tiny));
    expect(tiny.bytes).toBe(oneRange);
    await expect(openCommitRange(repo, { from, stop: never }, 3, walkBounds(tiny))).rejects.toBeInstanceOf(BusyError);
    alone.release();
    expect(tiny.bytes).toBe(0);
  });

  it('reads no chunk after the signal aborts, not even one already waiting for its slot', async () => {
    const from = commits[commits.length - 1] as Oid;
    const oids = OidList.of(revList(gitDir, [from]) as Oid[]);
    let reads = 0;
    const counted = {
      readCommits: (oids: readonly Oid[]) => {
        reads += oids.length;
        return repo.readCommits(oids);
      },
    };
    const ended = new AbortController();
    // Both slots taken: the reader's next chunk waits for one.
    const held = await Promise.all([longWalks.acquire(), longWalks.acquire()]);
    const chunks = readInChunks(counted, oids, longWalks, { size: 10, signal: ended.signal });
    const next = chunks.next();
    await waitUntil(() => longWalks.pending === 3);
    ended.abort();
    for (const release of held) release();
    expect(await next).toEqual({ done: true, value: undefined });
    expect(reads).toBe(0);
    expect(longWalks.pending).toBe(0);
  });

  it('refuses a long walk past two running and eight waiting, and lists the others', async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    // The real repository, held at the gate: the first two walks keep their slots until it opens.
    const held = {
      readCommit: (oid: Oid) => repo.readCommit(oid),
      readCommits: (oids: readonly Oid[]) => repo.readCommits(oids),
      listCommitOids: async (options: Parameters<GitRepository['listCommitOids']>[0]) => {
        await gate;
        return repo.listCommitOids(options);
      },
    };
    const from = commits[commits.length - 1] as Oid;
    const never = '0'.repeat(40) as Oid;
    const walks = Array.from({ length: 12 }, () =>
      walkCommitsUntil(held, { from, stop: never }, 3, walkBounds()).then(
        (list) => list.map((commit) => commit.oid),
        (error: unknown) => (error as { code?: string }).code,
      ),
    );
    await waitUntil(() => longWalks.pending === 10);
    open();
    const outcomes = await Promise.all(walks);
    expect(outcomes.filter((outcome) => outcome === 'busy')).toHaveLength(2);
    for (const outcome of outcomes.filter((outcome) => outcome !== 'busy')) expect(outcome).toEqual(revList(gitDir, [from]));
  });

  it('has octopus merges, clock skew and equal committer times', () => {
    expect(revList(gitDir, ['--all', '--min-parents=3']).length).toBeGreaterThan(0);
    const times = revList(gitDir, ['--all', '--timestamp', '--parents']).map((line) => line.split(' '));
    const timeOf = new Map(times.map(([time, oid]) => [oid, Number(time)]));
    expect(times.some(([time, , ...parents]) => parents.some((parent) => (timeOf.get(parent) ?? 0) > Number(time)))).toBe(true);
    expect(new Set(timeOf.values()).size).toBeLessThan(timeOf.size);
  });

  it('answers the last commit touching every path from memory, as `git rev-list -1 -- path` does', async () => {
    const last = commits[commits.length - 1] as Oid;
    await repo.indexHistory(last);
    for (const from of commits) await repo.indexHistory(from);
    const spawned = readGitProcessCounts().command.spawned;
    const sample = commits.filter((_, at) => at % 3 === 0);
    const answers = await Promise.all(
      sample.flatMap((from) => TRICKY_PATHS.map(async (path) => ({ from, path, oid: await repo.lastCommitTouching({ from, path }) }))),
    );
    expect(readGitProcessCounts().command.spawned).toBe(spawned);
    for (const { from, path, oid } of answers) {
      expect({ from, path, oid }).toEqual({ from, path, oid: revList(gitDir, ['-1', from, '--', path])[0] ?? null });
    }
  });

  it('answers a first question through git, then reads the history into memory by itself', async () => {
    const fresh = openGitRepository(gitDir, { runtime });
    try {
      const from = commits[commits.length - 2] as Oid;
      const expected = revList(gitDir, ['-1', from, '--', 'a'])[0] ?? null;
      expect(await fresh.lastCommitTouching({ from, path: 'a' })).toBe(expected);
      // The index's read (rev-list, then diff-tree) starts after the answer; once it is done,
      // no process answers.
      const answered = readGitProcessCounts().command.spawned;
      await waitUntil(() => readGitProcessCounts().command.spawned >= answered + 2 && readGitProcessCounts().command.running === 0);
      const spawned = readGitProcessCounts().command.spawned;
      expect(await fresh.lastCommitTouching({ from, path: 'd/x' })).toBe(revList(gitDir, ['-1', from, '--', 'd/x'])[0] ?? null);
      expect(readGitProcessCounts().command.spawned).toBe(spawned);
    } finally {
      await fresh.close();
    }
  });
});

describe('first pages of history in two repositories', () => {
  it('lists a commit walked in one repository only from a repository that holds it', async () => {
    const one = await buildTrickyHistory(tmp, { seed: 11, commits: 30 });
    const other = await buildTrickyHistory(tmp, { seed: 12, commits: 30 });
    const [first, second] = [openGitRepository(one.gitDir, { runtime }), openGitRepository(other.gitDir, { runtime })];
    try {
      const from = one.commits[one.commits.length - 1] as Oid;
      expect((await first.walkCommits({ from, maxCount: 10 })).map((commit) => commit.oid)).toEqual(revList(one.gitDir, ['--max-count=10', from]));
      // Its commits are held now; the other repository still has to have them (git says it has not).
      await expect(second.walkCommits({ from, maxCount: 10 })).rejects.toThrow();
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });
});
