import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TreeStats } from '@forge-httpd/api-types';
import { type Oid, openGitRepository, readGitProcessCounts } from '@forge-httpd/storage';
import { type BuiltHome, repositoryByName } from '@forge-httpd/builder';
import type { HistoryStats } from '../src/git-content/git-content-cache.js';
import { HistoryStatsCounter } from '../src/tree/history-stats.js';
import { HISTORY_STATS_FILE, readKeptHistories } from '../src/tree/history-stats-file.js';
import type { ScratchCommit } from '@forge-httpd/builder/scratch';
import { buildScratchHome, getJson, makeTempDir, removeTempDir, startTestServer, type TestServer } from './support/index.js';
import { StorageRuntime } from '@forge-httpd/storage';

const runtime = new StorageRuntime();

// stats/tree counts the history of a commit; after the head moved on (a push), the commits
// added since the head counted before are read, not the whole history. Every answer must be
// what a server counting that commit's history in full answers.

const T = 1_700_000_000;
const person = (name: string): { name: string; email: string } => ({ name, email: `${name.toLowerCase()}@example.com` });
/**
 * 0–3 a line by Ada and Bo; 4–5 a side branch from 1 by Cy (and Ada under another email);
 * 6 by Dee on the line; 7 merges the side branch (by Ada); 8 by Eve on top.
 */
const COMMITS: ScratchCommit[] = [
  { message: 'c0\n', time: T, author: person('Ada'), changes: [{ path: 'a.txt', content: 'a0\n' }] },
  { message: 'c1\n', time: T + 1, author: person('Bo'), changes: [{ path: 'a.txt', content: 'a1\n' }] },
  { message: 'c2\n', time: T + 2, author: person('Ada'), changes: [{ path: 'a.txt', content: 'a2\n' }] },
  { message: 'c3\n', time: T + 3, author: person('Bo'), changes: [{ path: 'a.txt', content: 'a3\n' }] },
  { message: 's4\n', time: T + 4, parents: [1], author: person('Cy'), changes: [{ path: 'b.txt', content: 'b4\n' }] },
  { message: 's5\n', time: T + 5, author: { name: 'Ada', email: 'ada@elsewhere.org' }, changes: [{ path: 'b.txt', content: 'b5\n' }] },
  { message: 'c6\n', time: T + 6, parents: [3], author: person('Dee'), changes: [{ path: 'a.txt', content: 'a6\n' }] },
  { message: 'm7\n', time: T + 7, parents: [6, 5], author: person('Ada'), changes: [{ path: 'b.txt', content: 'b5\n' }] },
  { message: 'c8\n', time: T + 8, author: person('Eve'), changes: [{ path: 'a.txt', content: 'a8\n' }] },
];

let dir: string;
let built: BuiltHome;
let ids: string[];

beforeAll(async () => {
  dir = await makeTempDir();
  ({ built, ids } = await buildScratchHome(dir, { name: 'counted', commits: COMMITS, seed: 'cd'.repeat(32), time: T }));
}, 60_000);
afterAll(() => removeTempDir(dir));

async function statsOf(server: TestServer, index: number): Promise<TreeStats> {
  const response = await getJson(`${server.baseUrl}/api/v1/repos/${repositoryByName(built, 'counted').rid}/stats/tree/${ids[index]}`);
  expect(response.status).toBe(200);
  return response.body as TreeStats;
}

/** Each commit's stats from a server of its own, which counts that history in full. */
async function countedInFull(indexes: readonly number[]): Promise<Map<number, TreeStats>> {
  const answers = new Map<number, TreeStats>();
  for (const index of indexes) {
    const server = await startTestServer({ home: built.home });
    try {
      answers.set(index, await statsOf(server, index));
    } finally {
      await server.close();
    }
  }
  return answers;
}

describe('stats/tree after the head moved on', () => {
  it('answers as a full count for descendants, side branches and merges asked in turn', async () => {
    // Forward along the line, to a side branch (not a descendant: counted in full), to the
    // merge (a descendant of the side branch), back to an ancestor, forward again.
    const order = [0, 2, 3, 6, 5, 7, 8, 1, 8];
    const full = await countedInFull([...new Set(order)]);
    expect(full.get(8)).toEqual({ commits: 9, branches: 1, contributors: 6 });
    expect(full.get(5)).toEqual({ commits: 4, branches: 1, contributors: 4 });
    const server = await startTestServer({ home: built.home });
    try {
      for (const index of order) expect([index, await statsOf(server, index)]).toEqual([index, full.get(index)]);
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe('counted histories kept in the cache directory', () => {
  const file = (): string => join(dir, HISTORY_STATS_FILE);
  const rid = (): string => repositoryByName(built, 'counted').rid;

  /** Counts with a fresh counter over the kept file, and how many git commands that started. */
  async function countAfterRestart(index: number): Promise<{ stats: HistoryStats; commands: number }> {
    const git = openGitRepository(repositoryByName(built, 'counted').gitDir, { runtime });
    try {
      const before = readGitProcessCounts().command.spawned;
      const stats = await new HistoryStatsCounter(file()).count(rid(), git, ids[index] as Oid);
      return { stats, commands: readGitProcessCounts().command.spawned - before };
    } finally {
      await git.close();
    }
  }

  it('answers a kept head after a restart without reading its history again', async () => {
    const git = openGitRepository(repositoryByName(built, 'counted').gitDir, { runtime });
    const first = new HistoryStatsCounter(file());
    const counted = await first.count(rid(), git, ids[8] as Oid);
    await git.close();
    first.flush();
    expect(counted).toEqual({ commits: 9, contributors: 6 });
    expect(await countAfterRestart(8)).toEqual({ stats: counted, commands: 0 });
  });

  it("is written to the server's cache directory when it stops", async () => {
    const cacheDir = join(dir, 'server-cache');
    const server = await startTestServer({ home: built.home, cacheDir });
    try {
      expect(await statsOf(server, 6)).toEqual({ commits: 5, branches: 1, contributors: 3 });
    } finally {
      await server.close();
    }
    expect(readKeptHistories(join(cacheDir, HISTORY_STATS_FILE))).toEqual([
      { repository: rid(), head: ids[6], commits: 5, authors: ['Dee\0dee@example.com', 'Bo\0bo@example.com', 'Ada\0ada@example.com'] },
    ]);
  });

  it('counts in full when the kept head is not in the repository, or the file is damaged', async () => {
    const absent = { repository: rid(), head: 'e'.repeat(40), commits: 3, authors: ['Ada\0ada@example.com'] };
    await writeFile(file(), JSON.stringify([absent]));
    expect((await countAfterRestart(7)).stats).toEqual({ commits: 8, contributors: 5 });
    await writeFile(file(), '[{"repository": 1}, "garbage"');
    expect((await countAfterRestart(5)).stats).toEqual({ commits: 4, contributors: 4 });
  });
});
