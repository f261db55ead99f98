/**
 * The in-memory last commit per path (blob and readme pages' `lastCommit`) against `git log
 * -1 <commit> -- <path>` on every path of a history made by the benchmark's generator
 * (merges of diverged feature branches, renames, deletions).
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openGitRepository, readGitProcessCounts, type GitRepository, type Oid } from '@forge-httpd/storage';
import { buildGitFixture, type GitFixture } from '../src/bench/git-fixture.js';
import { StorageRuntime } from '@forge-httpd/storage';

const runtime = new StorageRuntime();

let tmp: string;
let fixture: GitFixture;
let repo: GitRepository;

const git = (args: readonly string[]): string => execFileSync('git', ['-C', fixture.gitDir, ...args], { maxBuffer: 64 * 1024 * 1024 }).toString('utf8');

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'forge-oracle-'));
  fixture = await buildGitFixture(path.join(tmp, 'big.git'), { commits: 300, files: 60, seed: 7 });
  repo = openGitRepository(fixture.gitDir, { runtime });
}, 120_000);
afterAll(async () => {
  await repo.close();
  await rm(tmp, { recursive: true, force: true });
});

it('answers the last commit touching every path ever in the history like git log -1, without a git process', async () => {
  expect(fixture.merges).toBeGreaterThan(0);
  expect(fixture.renames).toBeGreaterThan(0);
  const paths = [...new Set(git(['log', '--all', '--format=', '--name-only', '--no-renames', '-m']).split('\n'))].filter((line) => line !== '');
  const all = git(['rev-list', 'HEAD']).trim().split('\n') as Oid[];
  expect(paths.length).toBeGreaterThan(60);
  const starts = [fixture.head as Oid, ...all.filter((_, at) => at % 60 === 30)];
  for (const from of starts) await repo.indexHistory(from);
  const spawned = readGitProcessCounts().command.spawned;
  const answers = await Promise.all(
    starts.flatMap((from) => paths.map(async (file) => ({ from, file, oid: await repo.lastCommitTouching({ from, path: file }) }))),
  );
  expect(readGitProcessCounts().command.spawned).toBe(spawned);
  for (const { from, file, oid } of answers) {
    const expected = git(['--literal-pathspecs', 'log', '-1', '--format=%H', from, '--', file]).trim();
    expect({ from, file, oid }).toEqual({ from, file, oid: expected === '' ? null : expected });
  }
}, 300_000);
