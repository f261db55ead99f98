/**
 * Streams that never lie: many clones and fetches of every kind, archives, raw files and a
 * long streamed JSON answer at once, on a history big enough for their streams to overlap,
 * while busy loops hold every core — then again while the spawn helper is killed mid-stream,
 * then again while the git processes themselves are killed. Every answer is complete and
 * equal to what git itself gives for the same request, or fails visibly (an error status
 * before the body, a reset connection, a git client that exits non-zero); never a clean end
 * of a short body, and a cut JSON answer is never valid JSON.
 */
import { type ChildProcess, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { type BuiltHome, buildNodeHome, repositoryByName } from '@forge-httpd/builder';
import { descendantProcesses, eventually, startBusyLoops } from '../support/faults.js';
import { makeTempDir, removeTempDir, runGitClient, startTestServer, type TestServer } from '../support/index.js';

const T = 1_700_000_000;
const COMMITS = 1500;
const gitEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };

/**
 * A history written by `git fast-import`: small text changes in every commit and, every 100
 * commits, a 192 KiB incompressible file, so that a clone's pack is a few MB.
 */
function writeHistory(gitDir: string): void {
  execFileSync('git', ['init', '--quiet', '--bare', '--initial-branch=master', gitDir], { env: gitEnv });
  const parts: Buffer[] = [];
  const data = (bytes: Buffer): void => {
    parts.push(Buffer.from(`data ${bytes.length}\n`), bytes, Buffer.from('\n'));
  };
  for (let index = 0; index < COMMITS; index += 1) {
    parts.push(Buffer.from(`commit refs/heads/master\nmark :${index + 1}\ncommitter Dev ${index % 7} <dev${index % 7}@example.org> ${T + index * 60} +0000\n`));
    data(Buffer.from(`Change ${index}\n`));
    if (index > 0) parts.push(Buffer.from(`from :${index}\n`));
    const file = Buffer.from(`${`line of file ${index % 40}\n`.repeat(20)}change ${index}\n`);
    parts.push(Buffer.from(`M 100644 inline src/file-${index % 40}.txt\n`));
    data(file);
    if (index % 100 === 0) {
      parts.push(Buffer.from(`M 100644 inline assets/blob-${index / 100}.bin\n`));
      data(randomBytes(192 * 1024));
    }
  }
  execFileSync('git', ['--git-dir', gitDir, 'fast-import', '--quiet'], { input: Buffer.concat(parts), env: gitEnv, maxBuffer: 1 << 26 });
}

/** Outcome of one request: complete (with its bytes) or visibly failed. */
type Outcome =
  { readonly kind: 'complete'; readonly status: number; readonly bytes: Buffer } | { readonly kind: 'failed'; readonly why: string; readonly partial?: Buffer };

/**
 * GET with node:http, the body read as it comes: complete only when the response ended as
 * HTTP says it ends; a reset or a cut chunked body is a visible failure (with what came).
 */
function get(url: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const request = httpRequest(url, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        if (response.complete) resolve({ kind: 'complete', status: response.statusCode ?? 0, bytes: Buffer.concat(chunks) });
        else resolve({ kind: 'failed', why: 'incomplete body', partial: Buffer.concat(chunks) });
      });
      response.on('error', (error) => resolve({ kind: 'failed', why: error.message, partial: Buffer.concat(chunks) }));
      response.on('aborted', () => resolve({ kind: 'failed', why: 'aborted', partial: Buffer.concat(chunks) }));
    });
    request.on('error', (error) => resolve({ kind: 'failed', why: error.message }));
    request.end();
  });
}

function killAll(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

let dir: string;
let built: BuiltHome;
let server: TestServer;
let gitDir: string;
let head: string;
let clones = 0;

beforeAll(async () => {
  dir = await makeTempDir();
  writeHistory(join(dir, 'source.git'));
  built = await buildNodeHome({
    home: join(dir, 'home'),
    seed: 'd4'.repeat(32),
    alias: 'seed',
    time: T,
    repos: [{ name: 'big', history: { kind: 'import', from: join(dir, 'source.git'), sourceRef: 'refs/heads/master' } }],
  });
  gitDir = repositoryByName(built, 'big').gitDir;
  head = execFileSync('git', ['--git-dir', gitDir, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  server = await startTestServer({ home: built.home, cacheDir: join(dir, 'cache'), gitServerLimits: { maxProcesses: 48, timeoutMs: 120_000 } });
}, 300_000);

afterAll(async () => {
  await server?.close();
  await removeTempDir(dir);
});

const rid = (): string => repositoryByName(built, 'big').rid;
const gitOut = (args: readonly string[]): Buffer => execFileSync('git', ['--git-dir', gitDir, ...args], { env: gitEnv, maxBuffer: 1 << 28 });

/** One request of the mix: what it asks, and how to judge a complete answer. */
interface Ask {
  readonly label: string;
  run(): Promise<Outcome>;
  /** Throws when a complete answer is not exactly git's. */
  check(bytes: Buffer): void;
}

/** A git client run (clone or fetch): exit 0 and a verified result, or a visible failure. */
function gitAsk(label: string, commands: (target: string) => string[][], verify: (target: string) => Promise<void>): Ask {
  return {
    label,
    run: async () => {
      const target = join(dir, `client-${(clones += 1)}`);
      try {
        for (const args of commands(target)) await runGitClient(args, dir);
      } catch (error) {
        return { kind: 'failed', why: ((error as { stderr?: string }).stderr ?? '').trim().split('\n').pop() ?? 'git failed' };
      }
      await verify(target);
      return { kind: 'complete', status: 200, bytes: Buffer.alloc(0) };
    },
    check: () => undefined,
  };
}

/** A clone's pack checked by git (index-pack ran; fsck checks every object and link) and its refs. */
async function verifyClone(target: string, options: { bare?: boolean; shallow?: boolean } = {}): Promise<void> {
  await runGitClient(['fsck', '--strict', '--no-progress', '--no-dangling'], target);
  expect((await runGitClient(['rev-parse', 'HEAD'], target)).stdout.trim()).toBe(head);
  expect((await runGitClient(['rev-list', '--count', 'HEAD'], target)).stdout.trim()).toBe(options.shallow === true ? '1' : String(COMMITS));
}

function asks(): Ask[] {
  const base = server.baseUrl;
  const url = `${base}/${rid()}.git`;
  const middle = gitOut(['rev-list', '--skip', String(COMMITS / 2), '--max-count', '1', 'HEAD'])
    .toString()
    .trim();
  const archiveTar = gitOut(['archive', '--format=tar', head]);
  const archiveZip = gitOut(['archive', '--format=zip', middle]);
  const blob = gitOut(['cat-file', 'blob', `${head}:assets/blob-14.bin`]);
  const commitCount = COMMITS;
  const http = (label: string, path: string, check: (bytes: Buffer) => void): Ask => ({ label, run: () => get(`${base}${path}`), check });
  return [
    gitAsk(
      'clone v2',
      (target) => [['-c', 'protocol.version=2', 'clone', '--quiet', url, target]],
      (target) => verifyClone(target),
    ),
    gitAsk(
      'clone v0',
      (target) => [['-c', 'protocol.version=0', 'clone', '--quiet', url, target]],
      (target) => verifyClone(target),
    ),
    gitAsk(
      'shallow clone',
      (target) => [['clone', '--quiet', '--depth', '1', url, target]],
      (target) => verifyClone(target, { shallow: true }),
    ),
    gitAsk(
      'partial clone',
      (target) => [['clone', '--quiet', '--bare', '--filter=blob:none', url, target]],
      async (target) => {
        await runGitClient(['fsck', '--strict', '--no-progress', '--no-dangling'], target);
        expect((await runGitClient(['rev-parse', 'HEAD'], target)).stdout.trim()).toBe(head);
      },
    ),
    gitAsk(
      'fetch by commit id',
      (target) => [
        ['init', '--quiet', '--bare', target],
        ['-C', target, 'fetch', '--quiet', '--depth', '1', url, middle],
      ],
      async (target) => {
        await runGitClient(['fsck', '--strict', '--no-progress', '--no-dangling'], target);
        expect((await runGitClient(['rev-parse', 'FETCH_HEAD'], target)).stdout.trim()).toBe(middle);
      },
    ),
    http('tar archive', `/raw/${rid()}/${head}.tar?prefix=false`, (bytes) => expect(bytes.equals(archiveTar)).toBe(true)),
    http('zip archive', `/raw/${rid()}/${middle}.zip?prefix=false`, (bytes) => expect(bytes.equals(archiveZip)).toBe(true)),
    http('raw file', `/raw/${rid()}/${head}/assets/blob-14.bin`, (bytes) => expect(bytes.equals(blob)).toBe(true)),
    http('streamed commit list', `/api/v1/repos/${rid()}/commits?since=0`, (bytes) => {
      const commits = JSON.parse(bytes.toString('utf8')) as Array<{ id: string }>;
      expect(commits).toHaveLength(commitCount);
      expect(commits[0]?.id).toBe(head);
    }),
  ];
}

/** Runs `copies` of every ask at once; each outcome judged. */
async function runMix(copies: number, during?: () => void): Promise<{ complete: number; failed: string[] }> {
  const mix = asks();
  const all = mix.flatMap((ask) => Array.from({ length: copies }, () => ask));
  const running = all.map(async (ask) => ({ ask, outcome: await ask.run() }));
  during?.();
  const results = await Promise.all(running);
  const failed: string[] = [];
  let complete = 0;
  for (const { ask, outcome } of results) {
    if (outcome.kind === 'failed') {
      failed.push(`${ask.label}: ${outcome.why}`);
      // A cut JSON answer must not parse: a client could not take it for a whole one.
      if (ask.label === 'streamed commit list' && outcome.partial !== undefined && outcome.partial.length > 0) {
        const partial = outcome.partial.toString('utf8');
        expect(() => {
          JSON.parse(partial);
        }).toThrow();
      }
      continue;
    }
    if (outcome.status !== 200) {
      // A refusal before the body: visible, and JSON of ours, not a piece of git's output.
      expect({ ask: ask.label, status: outcome.status >= 400, json: outcome.bytes.toString().startsWith('{"error"') }).toEqual({
        ask: ask.label,
        status: true,
        json: true,
      });
      failed.push(`${ask.label}: status ${outcome.status}`);
      continue;
    }
    complete += 1;
    ask.check(outcome.bytes);
  }
  return { complete, failed };
}

describe('streams under load', () => {
  let busy: ChildProcess[] = [];
  beforeEach(() => {
    busy = startBusyLoops(3);
  });
  afterEach(() => {
    for (const child of busy) child.kill('SIGKILL');
  });

  it('answers every clone, fetch, archive, raw file and streamed list completely and exactly while the CPU is saturated', async () => {
    const { complete, failed } = await runMix(3);
    expect(failed).toEqual([]);
    expect(complete).toBe(asks().length * 3);
  }, 600_000);

  it('completes or visibly fails every answer while the spawn helper is killed mid-stream', async () => {
    const logsBefore = server.logs.length;
    const helpers = () => descendantProcesses(['forge-httpd git spawn helper']);
    expect(helpers()).toHaveLength(1);
    const { complete, failed } = await runMix(2, () => setTimeout(() => killAll(helpers()), 400));
    expect(complete + failed.length).toBe(asks().length * 2);
    await eventually(async () => server.logs.slice(logsBefore).some((line) => line.includes('a new git spawn helper runs')));
    // Once a new helper runs, all answer again.
    const after = await runMix(1);
    expect(after.failed).toEqual([]);
  }, 600_000);

  it('completes or visibly fails every answer while git processes are killed', async () => {
    const killer = setInterval(() => killAll(descendantProcesses(['upload-pack', 'pack-objects', ' archive ', 'cat-file', 'rev-list'])), 250);
    let result: { complete: number; failed: string[] };
    try {
      result = await runMix(2, () => undefined);
    } finally {
      clearInterval(killer);
    }
    expect(result.complete + result.failed.length).toBe(asks().length * 2);
    // The server recovers: every answer again once nothing kills its processes.
    const after = await runMix(1);
    expect(after.failed).toEqual([]);
  }, 600_000);
});
