import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { didFromNid, verifySignature, type Nid } from '@forge-httpd/identity';
import { buildNodeHome, repositoryByName, type BuiltHome, type NodeHomeSpec } from '@forge-httpd/builder';

function git(gitDir: string, ...args: string[]): string {
  return execFileSync('git', [`--git-dir=${gitDir}`, ...args], { encoding: 'utf8' }).trim();
}

function gitBytes(gitDir: string, ...args: string[]): Buffer {
  return execFileSync('git', [`--git-dir=${gitDir}`, ...args]);
}

function nidOf(home: BuiltHome, alias: string): Nid {
  const peer = home.context.peers.get(alias);
  if (peer === undefined) throw new Error(`no peer ${alias}`);
  return peer.keyPair.nid;
}

const spec = (home: string): NodeHomeSpec => ({
  home,
  seed: '11'.repeat(32),
  alias: 'local',
  web: { description: 'A test node', pinned: ['shared'] },
  peers: [{ alias: 'ana', follow: { alias: 'ana-local' } }, { alias: 'ben' }, { alias: 'cy', known: false }],
  repos: [
    { name: 'shared', delegates: ['ana'], threshold: 2, forks: [{ peer: 'ben' }], seeds: ['ana', 'cy'], repack: true },
    { name: 'hidden', private: { allow: ['ben'] }, defaultBranch: 'trunk' },
  ],
});

describe('buildNodeHome', () => {
  let dir: string;
  let built: BuiltHome;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'forge-'));
    built = await buildNodeHome(spec(path.join(dir, 'one')));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes repositories that git fsck accepts', () => {
    for (const repo of built.repos) expect(() => git(repo.gitDir, 'fsck', '--strict', '--no-dangling')).not.toThrow();
  });

  it('adds a delegate through an identity revision and keeps the canonical head under threshold 2', () => {
    const repo = repositoryByName(built, 'shared');
    const ana = nidOf(built, 'ana');
    const doc = JSON.parse(git(repo.gitDir, 'cat-file', 'blob', 'refs/rad/id:embeds/radicle.json')) as Record<string, unknown>;
    expect(doc['delegates']).toEqual([didFromNid(built.nid), didFromNid(ana)]);
    expect(doc['threshold']).toBe(2);
    expect(doc['payload']).toHaveProperty(['xyz.forge.project', 'name'], 'shared');
    expect(git(repo.gitDir, 'rev-parse', 'refs/heads/main')).toBe(git(repo.gitDir, 'rev-parse', `refs/namespaces/${ana}/refs/heads/main`));
    expect(git(repo.gitDir, 'log', '--format=%s', 'refs/rad/id')).toBe('Propose revision\nInitialize identity');
  });

  it('signs every peer namespace with a verifiable sigrefs commit', () => {
    const repo = repositoryByName(built, 'shared');
    const peers = [...built.context.peers.values()].filter((peer) => peer.alias !== 'cy');
    for (const peer of peers) {
      const sigrefs = `refs/namespaces/${peer.keyPair.nid}/refs/rad/sigrefs`;
      const refs = gitBytes(repo.gitDir, 'cat-file', 'blob', `${sigrefs}:refs`);
      const signature = gitBytes(repo.gitDir, 'cat-file', 'blob', `${sigrefs}:signature`);
      expect(verifySignature(peer.keyPair.publicKey, refs, signature)).toBe(true);
      expect(refs.toString()).toContain(' refs/heads/main\n');
    }
  });

  it('repacks a repository into a packfile and packed-refs', () => {
    const repo = repositoryByName(built, 'shared');
    expect(existsSync(path.join(repo.gitDir, 'packed-refs'))).toBe(true);
    expect(git(repo.gitDir, 'count-objects', '-v')).toMatch(/^count: 0$/m);
    expect(git(repo.gitDir, 'symbolic-ref', 'HEAD')).toBe('refs/heads/main');
  });

  it('writes a private document with its allow list and no routing row', () => {
    const repo = repositoryByName(built, 'hidden');
    const ben = nidOf(built, 'ben');
    const doc = JSON.parse(git(repo.gitDir, 'cat-file', 'blob', 'refs/rad/id:embeds/radicle.json')) as Record<string, unknown>;
    expect(doc['visibility']).toEqual({ type: 'private', allow: [didFromNid(ben)] });
    expect(git(repo.gitDir, 'symbolic-ref', 'HEAD')).toBe('refs/heads/trunk');
    const db = new Database(path.join(built.home, 'node', 'node.db'), { readonly: true });
    const routing = db.prepare('select repo from routing where repo = ?').all(repo.rid);
    db.close();
    expect(routing).toEqual([]);
  });

  it('records seeding, follow and routing rows', () => {
    const shared = repositoryByName(built, 'shared');
    const policies = new Database(path.join(built.home, 'node', 'policies.db'), { readonly: true });
    expect(policies.prepare('select id, scope, policy from seeding order by id').all()).toHaveLength(2);
    expect(policies.prepare('select alias from following').all()).toEqual([{ alias: 'ana-local' }]);
    policies.close();
    const nodes = new Database(path.join(built.home, 'node', 'node.db'), { readonly: true });
    expect(nodes.prepare('select count(*) as n from routing where repo = ?').get(shared.rid)).toEqual({ n: 3 });
    nodes.close();
  });

  it('pins repositories by RID in config.json', async () => {
    const config = JSON.parse(await readFile(path.join(built.home, 'config.json'), 'utf8')) as { web: unknown };
    expect(config.web).toEqual({ pinned: { repositories: [repositoryByName(built, 'shared').rid] }, description: 'A test node' });
  });

  it('is deterministic: the same spec gives the same ids', async () => {
    const again = await buildNodeHome(spec(path.join(dir, 'two')));
    const ids = (home: BuiltHome) => home.repos.map((repo) => [repo.rid, repo.head, repo.identityHead, git(repo.gitDir, 'show-ref')]);
    expect(ids(again).map(([rid, head, id]) => [rid, head, id])).toEqual(ids(built).map(([rid, head, id]) => [rid, head, id]));
    expect(ids(again).map((entry) => entry[3])).toEqual(ids(built).map((entry) => entry[3]));
  });
});
