import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '../src/cli-commands.js';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { out: (text) => (out += text), err: (text) => (err += text) });
  return { code, out, err };
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_DATE: '1700000000 +0000',
      GIT_COMMITTER_DATE: '1700000000 +0000',
      GIT_AUTHOR_NAME: 'T',
      GIT_AUTHOR_EMAIL: 't@example.org',
      GIT_COMMITTER_NAME: 'T',
      GIT_COMMITTER_EMAIL: 't@example.org',
    },
  }).trim();
}

describe('builder CLI', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'forge-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('prints usage with --help', async () => {
    const result = await cli('--help');
    expect(result.code).toBe(0);
    expect(result.out).toContain('init    --home DIR --seed HEX --alias A');
  });

  it.each([
    ['an unknown command', ['frobnicate', '--home', 'x']],
    ['a missing option', ['init', '--home', 'x', '--alias', 'a']],
    ['an unknown flavour', ['demo', '--home', 'x', '--flavour', 'gitlab']],
    ['an unknown option', ['demo', '--home', 'x', '--colour']],
  ])('exits with 2 on %s', async (_label, argv) => {
    const result = await cli(...argv);
    expect(result.code).toBe(2);
    expect(result.err).toContain('Usage:');
  });

  it('creates a home and imports an existing git repository like rad init', async () => {
    const home = path.join(dir, 'home');
    const init = await cli('init', '--home', home, '--seed', 'ff'.repeat(32), '--alias', 'alice', '--flavour', 'radicle', '--time', '1671125284');
    expect(init.code).toBe(0);
    expect(JSON.parse(init.out)).toMatchObject({ nid: 'z6MknSLrJoTcukLrE435hVNQT4JUhbvWLX4kUzqkEStBU8Vi' });
    const work = path.join(dir, 'work');
    execFileSync('git', ['init', '--quiet', '--initial-branch=trunk', work]);
    git(work, 'commit', '--quiet', '--allow-empty', '-m', 'first');
    const imported = await cli('import', '--home', home, '--from', work, '--name', 'work', '--flavour', 'radicle', '--time', '1671125300', '--private');
    expect(imported.err).toBe('');
    const summary = JSON.parse(imported.out) as { rid: string; head: string; defaultBranch: string; gitDir: string };
    expect(summary.defaultBranch).toBe('trunk');
    expect(summary.head).toBe(git(work, 'rev-parse', 'HEAD'));
    expect(execFileSync('git', [`--git-dir=${summary.gitDir}`, 'rev-parse', 'refs/heads/trunk'], { encoding: 'utf8' }).trim()).toBe(summary.head);
    const doc = execFileSync('git', [`--git-dir=${summary.gitDir}`, 'cat-file', 'blob', 'refs/rad/id:embeds/radicle.json'], { encoding: 'utf8' });
    expect(JSON.parse(doc)).toMatchObject({ payload: { 'xyz.radicle.project': { name: 'work' } }, visibility: { type: 'private' } });
  });

  it('writes the demo home under flavour radicle', async () => {
    const result = await cli('demo', '--home', path.join(dir, 'demo'), '--flavour', 'radicle');
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.out) as { repos: { name: string; rid: string }[] };
    const acme = summary.repos.find((repo) => repo.name === 'acme-web');
    const gitDir = path.join(dir, 'demo', 'storage', (acme?.rid ?? '').slice(4));
    const doc = execFileSync('git', [`--git-dir=${gitDir}`, 'cat-file', 'blob', 'refs/rad/id:embeds/radicle.json'], { encoding: 'utf8' });
    expect(Object.keys((JSON.parse(doc) as { payload: object }).payload).sort()).toEqual(['xyz.radicle.crefs', 'xyz.radicle.project']);
  });
});
