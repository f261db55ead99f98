import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { buildDemoHome, repositoryByName, type BuiltHome } from '@forge-httpd/builder';

function git(gitDir: string, ...args: string[]): string {
  return execFileSync('git', [`--git-dir=${gitDir}`, ...args], { encoding: 'utf8' }).trim();
}

function currentDocument(gitDir: string): Record<string, unknown> {
  return JSON.parse(git(gitDir, 'cat-file', 'blob', 'refs/rad/id:embeds/radicle.json')) as Record<string, unknown>;
}

describe('buildDemoHome', () => {
  let dir: string;
  let built: BuiltHome;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'forge-'));
    built = await buildDemoHome(path.join(dir, 'home'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes public, private and blocked repositories that git fsck accepts', () => {
    expect(built.repos.map((repo) => repo.name)).toEqual(['forge-httpd', 'acme-web', 'tiny-lib', 'secret-plans', 'blocked-repo']);
    for (const repo of built.repos) expect(() => git(repo.gitDir, 'fsck', '--strict', '--no-dangling')).not.toThrow();
    expect(currentDocument(repositoryByName(built, 'secret-plans').gitDir)).toHaveProperty('visibility.type', 'private');
  });

  it("imports this project's own history when run inside its git repository", () => {
    const repo = repositoryByName(built, 'forge-httpd');
    let projectHead: string | null = null;
    try {
      projectHead = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    } catch {
      projectHead = null;
    }
    if (projectHead !== null) expect(repo.head).toBe(projectHead);
    expect(git(repo.gitDir, 'rev-parse', 'HEAD')).toBe(repo.head);
  });

  it('gives acme-web two delegates, threshold 2 and canonical-ref rules accepted by both', () => {
    const repo = repositoryByName(built, 'acme-web');
    const doc = currentDocument(repo.gitDir);
    expect(doc['delegates']).toHaveLength(2);
    expect(doc['threshold']).toBe(2);
    expect(doc['payload']).toHaveProperty(['xyz.forge.crefs', 'rules', 'refs/tags/*', 'threshold'], 1);
    expect(git(repo.gitDir, 'log', '--format=%s', 'refs/rad/id')).toBe('Propose revision\nPropose revision\nInitialize identity');
  });

  it('publishes annotated and lightweight tags and a release branch at top level', () => {
    const repo = repositoryByName(built, 'acme-web');
    expect(git(repo.gitDir, 'cat-file', '-t', 'refs/tags/v0.1.0')).toBe('tag');
    expect(git(repo.gitDir, 'cat-file', '-t', 'refs/tags/v0.2.0')).toBe('commit');
    expect(git(repo.gitDir, 'rev-parse', 'refs/heads/release/1.0')).toBe(repo.head);
    expect(git(repo.gitDir, 'for-each-ref', '--format=%(refname)', 'refs/tags/')).not.toContain('bob-wip');
  });

  it('keeps the canonical head when only one of two delegates pushed ahead', () => {
    const repo = repositoryByName(built, 'acme-web');
    const alice = built.context.peers.get('alice')?.keyPair.nid ?? '';
    const aliceTip = git(repo.gitDir, 'rev-parse', `refs/namespaces/${alice}/refs/heads/main`);
    expect(git(repo.gitDir, 'rev-parse', `${aliceTip}^`)).toBe(repo.head);
    expect(git(repo.gitDir, 'rev-parse', 'refs/heads/main')).toBe(repo.head);
  });

  it('repacks tiny-lib and pins two repositories', async () => {
    expect(git(repositoryByName(built, 'tiny-lib').gitDir, 'count-objects', '-v')).toMatch(/^count: 0$/m);
    const config = JSON.parse(await readFile(path.join(built.home, 'config.json'), 'utf8')) as { web: { pinned: { repositories: string[] } } };
    expect(config.web.pinned.repositories).toEqual([repositoryByName(built, 'acme-web').rid, repositoryByName(built, 'forge-httpd').rid]);
  });

  it('stores allow, followed and block seeding policies and aliases', () => {
    const policies = new Database(path.join(built.home, 'node', 'policies.db'), { readonly: true });
    const rows = policies.prepare('select scope, policy from seeding').all() as { scope: string; policy: string }[];
    const aliases = policies.prepare('select alias, policy from following order by alias').all();
    policies.close();
    expect(new Set(rows.map((row) => `${row.policy}/${row.scope}`))).toEqual(new Set(['allow/all', 'allow/followed', 'block/followed']));
    expect(aliases).toEqual([
      { alias: '', policy: 'allow' },
      { alias: '', policy: 'block' },
      { alias: 'carol-from-work', policy: 'allow' },
    ]);
  });
});
