import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { CatFileProcess } from './cat-file-process.js';
import { noiseBytes } from '../write/git-cli.testing.js';
import { BIG_SIZE, looseFixtureForSpec } from '../write/fixture-repo.testing.js';
import { LiveProcessLimit } from '../limits/live-process-limit.js';
import type { GitRepository } from '../git-repository.js';
import { initBareRepository } from '../write/init-bare-repository.js';
import { openGitRepository } from '../open-git-repository.js';
import { repackRepository } from '../write/repack-repository.js';
import { updateRefs } from '../write/update-refs.js';
import { writeObject } from '../write/write-object.js';
import { waitUntil } from '../../wait-until.testing.js';
import { StorageRuntime } from '../storage-runtime.js';

const runtime = new StorageRuntime();

const spec = looseFixtureForSpec();

async function withProcess<T>(idleMs: number, body: (process: CatFileProcess) => Promise<T>): Promise<T> {
  const catFile = new CatFileProcess(spec.fixture.gitDir, { processes: runtime.processes, idleMs });
  try {
    return await body(catFile);
  } finally {
    catFile.close();
  }
}

describe('the cat-file process', () => {
  it('starts lazily and answers pipelined requests in order', () =>
    withProcess(60_000, async (catFile) => {
      expect(catFile.pid).toBeUndefined();
      const answers = await Promise.all([
        catFile.request(spec.fixture.blobs.readme, true),
        catFile.request('0'.repeat(40), true),
        catFile.request(spec.fixture.blobs.big, false),
        catFile.request('refs/heads/side', false),
      ]);
      expect(answers[0]).toMatchObject({ found: true, type: 'blob', size: 6 });
      expect(answers[1]).toEqual({ found: false });
      expect(answers[2]).toEqual({ found: true, oid: spec.fixture.blobs.big, type: 'blob', size: BIG_SIZE });
      expect(answers[3]).toMatchObject({ oid: spec.fixture.commits.c3 });
      expect(catFile.pid).toBeGreaterThan(0);
    }));

  it('answers a thousand requests of one turn (one write) each with its own object, in order', () =>
    withProcess(60_000, async (catFile) => {
      const names = [spec.fixture.blobs.readme, '0'.repeat(40), spec.fixture.blobs.big, 'refs/heads/side'];
      const asked = Array.from({ length: 1000 }, (_, at) => names[at % names.length] as string);
      const answers = await Promise.all(asked.map((name, at) => catFile.request(name, at % 8 === 0)));
      const single = await Promise.all(names.map((name) => catFile.request(name, false)));
      answers.forEach((answer, at) => {
        expect({ found: answer.found, oid: answer.found ? answer.oid : null }).toEqual({
          found: single[at % names.length]?.found,
          oid: single[at % names.length]?.found === true ? (single[at % names.length] as { oid: string }).oid : null,
        });
      });
    }));

  it('restarts after the process is killed, retrying requests in flight', () =>
    withProcess(60_000, async (catFile) => {
      await catFile.request(spec.fixture.blobs.readme, false);
      const first = catFile.pid as number;
      process.kill(first, 'SIGKILL');
      const pending = catFile.request(spec.fixture.blobs.big, true);
      const answer = await pending;
      expect(answer).toMatchObject({ found: true, size: BIG_SIZE });
      const inFlight = catFile.request(spec.fixture.blobs.big, true);
      process.kill(catFile.pid as number, 'SIGKILL');
      expect(await inFlight).toMatchObject({ found: true, size: BIG_SIZE });
      expect(catFile.pid).not.toBe(first);
    }));

  it('stops when idle and starts again on the next request', () =>
    withProcess(50, async (catFile) => {
      await catFile.request(spec.fixture.blobs.readme, false);
      expect(catFile.pid).toBeDefined();
      await waitUntil(() => catFile.pid === undefined);
      expect(await catFile.request(spec.fixture.blobs.readme, false)).toMatchObject({ found: true });
    }));

  it('rejects requests after close', async () => {
    const catFile = new CatFileProcess(spec.fixture.gitDir, { processes: runtime.processes });
    const pending = catFile.request(spec.fixture.blobs.big, true);
    catFile.close();
    await expect(pending).rejects.toMatchObject({ code: 'process-failed' });
    await expect(catFile.request(spec.fixture.blobs.readme, false)).rejects.toMatchObject({ code: 'process-failed' });
  });
});

describe('corrupt objects', () => {
  it('fails the read of an object whose content is shorter than its header says and keeps serving others', async () => {
    const gitDir = path.join(spec.dir, 'corrupt.git');
    await initBareRepository(gitDir);
    const good = await writeObject(gitDir, 'blob', Buffer.from('good\n'));
    const bad = await writeObject(gitDir, 'blob', Buffer.from('0123456789'));
    const file = path.join(gitDir, 'objects', bad.slice(0, 2), bad.slice(2));
    await chmod(file, 0o644);
    await writeFile(file, deflateSync(Buffer.from('blob 10\0abc')));
    const repo = openGitRepository(gitDir, { runtime });
    try {
      const reads = await Promise.allSettled([repo.readBlob(good), repo.readBlob(bad), repo.readBlob(good)]);
      expect(reads[1]?.status).toBe('rejected');
      expect((await repo.readBlob(good))?.toString()).toBe('good\n');
      await writeFile(file, 'not zlib at all');
      expect(await repo.readBlob(bad)).toBeNull();
    } finally {
      await repo.close();
    }
  });
});

describe('an answer git leaves half written', () => {
  it('fails the read once no more output comes, logs it, and serves others from a new process', async () => {
    const gitDir = path.join(spec.dir, 'stalled.git');
    await initBareRepository(gitDir);
    const good = await writeObject(gitDir, 'blob', Buffer.from('good\n'));
    // Too big for the in-process reader (over 256 KiB compressed), and it announces 100,000
    // bytes more than it holds: git writes the header, the bytes it has, and waits.
    const noise = noiseBytes(300 * 1024, 7);
    const bad = '4' + '2'.repeat(39);
    await mkdir(path.join(gitDir, 'objects', bad.slice(0, 2)), { recursive: true });
    await writeFile(
      path.join(gitDir, 'objects', bad.slice(0, 2), bad.slice(2)),
      deflateSync(Buffer.concat([Buffer.from(`blob ${noise.length + 100_000}\0`), noise])),
    );
    const logs: string[] = [];
    const catFile = new CatFileProcess(gitDir, { processes: runtime.processes, stallMs: 200, log: (line) => logs.push(line) });
    try {
      await expect(catFile.request(bad, true)).rejects.toMatchObject({ code: 'process-failed' });
      expect(logs.filter((line) => line.includes('nothing for 200 ms'))).toHaveLength(2);
      expect((await catFile.request(good, true)).found).toBe(true);
    } finally {
      catFile.close();
    }
  });
});

describe('the process-wide limit on live cat-file processes', () => {
  it('stops the least recently used idle process when a new one starts beyond the limit', async () => {
    const limit = new LiveProcessLimit(2);
    const processes = [0, 1, 2].map(() => new CatFileProcess(spec.fixture.gitDir, { processes: runtime.processes, limit }));
    try {
      for (const catFile of processes) await catFile.request(spec.fixture.blobs.readme, false);
      expect(processes.map((catFile) => catFile.pid !== undefined)).toEqual([false, true, true]);
      expect(limit.size).toBe(2);
      expect(await processes[0]?.request(spec.fixture.blobs.readme, false)).toMatchObject({ found: true });
      expect(processes.map((catFile) => catFile.pid !== undefined)).toEqual([true, false, true]);
    } finally {
      for (const catFile of processes) catFile.close();
    }
    expect(limit.size).toBe(0);
  });
});

describe('a repository under concurrent use', () => {
  let repo: GitRepository;
  beforeAll(() => {
    repo = openGitRepository(spec.fixture.gitDir, { runtime });
  });
  afterAll(() => repo.close());

  it('answers 100 parallel mixed reads correctly', async () => {
    const { c1, c3 } = spec.fixture.commits;
    const tasks = Array.from({ length: 100 }, async (_, i) => {
      switch (i % 5) {
        case 0:
          return (await repo.readCommit(c3))?.parents[0] === c1;
        case 1:
          return (await repo.readBlob(spec.fixture.blobs.big))?.length === BIG_SIZE;
        case 2:
          return (await repo.findEntry(c1, 'dir/a.txt'))?.oid === spec.fixture.blobs.a;
        case 3:
          return (await repo.resolveRef('HEAD')) === spec.fixture.commits.c5;
        default:
          return (await repo.countCommits(c3)) === 2;
      }
    });
    expect(await Promise.all(tasks)).toEqual(Array(100).fill(true));
  });

  it('sees objects and refs written, and packs made, after it started', async () => {
    expect(await repo.resolveRef('refs/heads/new')).toBeNull();
    const blob = await writeObject(spec.fixture.gitDir, 'blob', Buffer.from('fresh\n'));
    expect((await repo.readBlob(blob))?.toString()).toBe('fresh\n');
    await updateRefs(spec.fixture.gitDir, [{ name: 'refs/heads/new', oid: spec.fixture.commits.c2 }]);
    expect(await repo.resolveRef('refs/heads/new')).toBe(spec.fixture.commits.c2);
    await repackRepository(spec.fixture.gitDir);
    await updateRefs(spec.fixture.gitDir, [{ name: 'refs/heads/new', oid: spec.fixture.commits.c3 }]);
    expect(await repo.resolveRef('refs/heads/new')).toBe(spec.fixture.commits.c3);
    await updateRefs(spec.fixture.gitDir, [{ name: 'refs/heads/new', delete: true }]);
    expect(await repo.resolveRef('refs/heads/new')).toBeNull();
    expect((await repo.readBlob(blob))?.toString()).toBe('fresh\n');
    expect((await repo.readCommit(spec.fixture.commits.c1))?.message).toBe('Initial commit');
  });
});
