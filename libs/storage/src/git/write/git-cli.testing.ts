/**
 * Test helper (named *.test.ts so jest does not run it and the library build skips it):
 * runs the real git CLI synchronously for fixtures and oracles.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { initBareRepository } from './init-bare-repository.js';

const FIXED_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Alice',
  GIT_AUTHOR_EMAIL: 'alice@example.com',
  GIT_COMMITTER_NAME: 'Alice',
  GIT_COMMITTER_EMAIL: 'alice@example.com',
  LC_ALL: 'C',
};

/** Runs `git --git-dir=<gitDir> <args>` and returns stdout as a Buffer. */
export function gitRaw(gitDir: string, args: readonly string[], options: { input?: Buffer | string; env?: Record<string, string> } = {}): Buffer {
  return execFileSync('git', [`--git-dir=${gitDir}`, ...args], {
    env: { ...FIXED_ENV, ...options.env },
    input: options.input,
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** Runs git and returns trimmed stdout text. */
export function git(gitDir: string, args: readonly string[], options: { input?: Buffer | string; env?: Record<string, string> } = {}): string {
  return gitRaw(gitDir, args, options).toString('utf8').trim();
}

/** Creates a temp directory (remove it with {@link removeTempDir}). */
export function makeTempDir(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'forge-'));
}

/** An empty bare repository `repo.git` in a new temp directory (remove `tmp` with {@link removeTempDir}). */
export async function makeTempBareRepository(): Promise<{ tmp: string; gitDir: string }> {
  const tmp = await makeTempDir();
  const gitDir = path.join(tmp, 'repo.git');
  await initBareRepository(gitDir);
  return { tmp, gitDir };
}

/** Removes a temp directory made by {@link makeTempDir}. */
export function removeTempDir(dir: string): Promise<void> {
  return rm(dir, { recursive: true, force: true });
}

/** Commit environment pinning author/committer dates (seconds, +0000). */
export function dateEnv(seconds: number): Record<string, string> {
  return { GIT_AUTHOR_DATE: `${seconds} +0000`, GIT_COMMITTER_DATE: `${seconds} +0000` };
}

/** `length` bytes of deterministic noise that zlib cannot compress (a seeded LCG's high bytes). */
export function noiseBytes(length: number, seed = 12345): Buffer {
  const bytes = Buffer.alloc(length);
  let state = seed;
  for (let i = 0; i < length; i += 1) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    bytes[i] = state >>> 24;
  }
  return bytes;
}

/**
 * Writes `commits` commits on `branch` with `git fast-import` (one file changed by each; the
 * first one's parent is `from` when given, else it is a root commit); ~1 ms per 10 commits.
 * @returns the new commits, oldest first
 */
export function importLinearCommits(gitDir: string, options: { branch: string; commits: number; from?: string; time?: number }): string[] {
  const lines: string[] = [];
  const time = options.time ?? 1_600_000_000;
  for (let at = 1; at <= options.commits; at += 1) {
    const message = `${options.branch} ${at}`;
    lines.push(`commit ${options.branch}`, `mark :${at}`, `committer Alice <alice@example.com> ${time + at} +0000`);
    lines.push(`data ${Buffer.byteLength(message)}`, message);
    if (at > 1) lines.push(`from :${at - 1}`);
    else if (options.from !== undefined) lines.push(`from ${options.from}`);
    lines.push('M 100644 inline file', `data ${String(at).length}`, String(at), '');
  }
  git(gitDir, ['fast-import', '--quiet', '--force'], { input: `${lines.join('\n')}\n` });
  return git(gitDir, ['rev-list', '--reverse', '-n', String(options.commits), options.branch]).split('\n');
}
