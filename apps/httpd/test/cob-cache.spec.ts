import { mkdir, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Issue, Patch } from '@forge-httpd/api-types';
import { sqliteEvaluationsFile } from '@forge-httpd/cob';
import { commentIssue } from '@forge-httpd/cob/write';
import { type BuiltHome, buildDemoHome, repositoryByName } from '@forge-httpd/builder';
import { CobStoreService } from '../src/cobs/cob-store.service.js';
import { getJson, makeTempDir, removeTempDir, startTestServer } from './support/index.js';
import { eventually } from './support/faults.js';

// The persisted COB cache (issue 14): evaluated issues and patches kept in the server's own
// cache directory must only ever make answers faster, never different.

let dir: string;
let built: BuiltHome;
const REPOS = ['acme-web', 'forge-httpd'];

beforeAll(async () => {
  dir = await makeTempDir();
  built = await buildDemoHome(join(dir, 'home'));
}, 120_000);

afterAll(() => removeTempDir(dir));

/** Every issue and patch page of the demo's COB repositories (lists, objects, repo info). */
async function pagePaths(baseUrl: string): Promise<string[]> {
  const paths: string[] = [];
  for (const name of REPOS) {
    const repo = `/api/v1/repos/${repositoryByName(built, name).rid}`;
    const issues = (await getJson(`${baseUrl}${repo}/issues?status=all`)).body as Issue[];
    const patches = (await getJson(`${baseUrl}${repo}/patches?status=all`)).body as Patch[];
    paths.push(repo, `${repo}/issues?status=all`, `${repo}/issues?status=closed`, `${repo}/patches?status=all`, `${repo}/patches?status=merged`);
    paths.push(...issues.map((issue) => `${repo}/issues/${issue.id}`), ...patches.map((patch) => `${repo}/patches/${patch.id}`));
  }
  return paths;
}

/** Starts a server, requests every page (paths from the first pass), stops it (its cache is written). */
async function serveAll(options: { cacheDir?: string; paths?: readonly string[] }): Promise<{
  paths: readonly string[];
  answers: Map<string, { status: number; text: string }>;
  evaluations: number;
}> {
  const server = await startTestServer({ home: built.home, cacheDir: options.cacheDir, metrics: true });
  try {
    const paths = options.paths ?? (await pagePaths(server.baseUrl));
    return { paths, answers: await answersOf(server.baseUrl, paths), evaluations: await issueAndPatchEvaluations(server.metricsUrl ?? '') };
  } finally {
    await server.close();
  }
}

/** Each page's status and text, asked one after another. */
async function answersOf(baseUrl: string, paths: readonly string[]): Promise<Map<string, { status: number; text: string }>> {
  const answers = new Map<string, { status: number; text: string }>();
  for (const path of paths) {
    const response = await getJson(`${baseUrl}${path}`);
    answers.set(path, { status: response.status, text: response.text });
  }
  return answers;
}

/** Issue and patch evaluations the server counted (the `forge_cob_evaluation_seconds` histogram). */
async function issueAndPatchEvaluations(metricsUrl: string): Promise<number> {
  const text = await (await fetch(`${metricsUrl}/metrics`)).text();
  const counts = [...text.matchAll(/^forge_cob_evaluation_seconds_count\{type="xyz\.forge\.(?:issue|patch)"\} (\d+)$/gm)];
  return counts.reduce((sum, match) => sum + Number(match[1]), 0);
}

async function cacheDirWithAnswers(name: string, paths: readonly string[]): Promise<string> {
  const cacheDir = join(dir, name);
  const written = await serveAll({ cacheDir, paths });
  expect(written.evaluations).toBeGreaterThan(0);
  return cacheDir;
}

describe('the persisted COB cache', () => {
  it('answers identically without a cache, with a fresh one and after a restart with it', async () => {
    const reference = await serveAll({});
    expect(reference.paths.length).toBeGreaterThan(10);
    expect([...reference.answers.values()].every((answer) => answer.status === 200)).toBe(true);
    const cacheDir = join(dir, 'cache-same');
    const fresh = await serveAll({ cacheDir, paths: reference.paths });
    expect(fresh.answers).toEqual(reference.answers);
    const restarted = await serveAll({ cacheDir, paths: reference.paths });
    expect(restarted.answers).toEqual(reference.answers);
    // Every issue and patch came from the cache: nothing was evaluated again.
    expect(restarted.evaluations).toBe(0);
    // The start-up warm-up is told to load the repositories the cache holds.
    const server = await startTestServer({ home: built.home, cacheDir });
    try {
      const rids = server.server.app.get(CobStoreService).persistedRepositories();
      expect(rids).toContain(repositoryByName(built, 'acme-web').rid);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('reads views back per page once written, and evaluates again what the file lost', async () => {
    const reference = await serveAll({});
    const cacheDir = join(dir, 'cache-views');
    // No rendered answers kept: every page below is built from the views, as this test is about them.
    const server = await startTestServer({ home: built.home, cacheDir, metrics: true, responseCacheBytes: 0 });
    try {
      const cobs = server.server.app.get(CobStoreService);
      expect(await answersOf(server.baseUrl, reference.paths)).toEqual(reference.answers);
      // Every view written to the cache directory is let go; memory keeps the listing facts.
      await eventually(async () => cobs.stats().views === 0);
      expect(cobs.stats().stores).toBeGreaterThan(0);
      const evaluated = await issueAndPatchEvaluations(server.metricsUrl ?? '');
      // Views read back per page: the same answers, nothing evaluated again.
      const readBack = await answersOf(server.baseUrl, reference.paths);
      expect(readBack).toEqual(reference.answers);
      expect(await issueAndPatchEvaluations(server.metricsUrl ?? '')).toBe(evaluated);
      // The file loses its rows while the server runs: the views are evaluated again.
      const db = new Database(sqliteEvaluationsFile(cacheDir));
      db.prepare('DELETE FROM evaluations').run();
      db.close();
      expect(await answersOf(server.baseUrl, reference.paths)).toEqual(reference.answers);
      expect(await issueAndPatchEvaluations(server.metricsUrl ?? '')).toBeGreaterThan(evaluated);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('serves the new state of an issue edited after the cache was written', async () => {
    const before = await serveAll({});
    const cacheDir = await cacheDirWithAnswers('cache-edited', before.paths);
    const repo = repositoryByName(built, 'acme-web');
    const issues = JSON.parse(before.answers.get(`/api/v1/repos/${repo.rid}/issues?status=all`)?.text ?? '[]') as Issue[];
    const issue = issues[0]?.id ?? '';
    const local = built.context.local;
    const context = { gitDir: repo.gitDir, keyPair: local.keyPair, alias: local.alias, time: built.context.clock.tick(), flavour: built.flavour };
    await commentIssue(context, { issue: issue as never, body: 'Written after the cache was.' });
    const reference = await serveAll({ paths: before.paths });
    const cached = await serveAll({ cacheDir, paths: before.paths });
    expect(cached.answers).toEqual(reference.answers);
    expect(cached.answers.get(`/api/v1/repos/${repo.rid}/issues/${issue}`)?.text).toContain('Written after the cache was.');
    // Only the edited issue was evaluated again.
    expect(cached.evaluations).toBe(1);
  }, 60_000);

  it.each([
    ['filled with garbage', (file: string) => writeFile(file, 'garbage '.repeat(1000))],
    ['truncated', (file: string) => truncate(file, 4096 + 100)],
  ])(
    'answers correctly when the cache file is %s',
    async (name, damage) => {
      const reference = await serveAll({});
      const cacheDir = await cacheDirWithAnswers(`cache-${name.split(' ')[0]}`, reference.paths);
      await damage(sqliteEvaluationsFile(cacheDir));
      const served = await serveAll({ cacheDir, paths: reference.paths });
      expect(served.answers).toEqual(reference.answers);
    },
    60_000,
  );

  it('answers correctly when the cache directory cannot be written', async () => {
    const reference = await serveAll({});
    // A file where a parent directory should be: not writable for root either.
    const blocker = join(dir, 'not-a-directory');
    await mkdir(dir, { recursive: true });
    await writeFile(blocker, '');
    const served = await serveAll({ cacheDir: join(blocker, 'cache'), paths: reference.paths });
    expect(served.answers).toEqual(reference.answers);
  }, 60_000);
});
