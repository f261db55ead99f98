import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildHeartwoodHome, type HeartwoodHome } from '@forge-httpd/builder';

const ALICE = 'z6MknSLrJoTcukLrE435hVNQT4JUhbvWLX4kUzqkEStBU8Vi';
const BOB = 'z6Mkt67GdsW7715MEfRuP4pSZxJRJh6kj6Y48WRqVv4N1tRk';

function git(gitDir: string, ...args: string[]): string {
  return execFileSync('git', [`--git-dir=${gitDir}`, ...args], { encoding: 'utf8' }).trim();
}

describe('the heartwood recipe under flavour radicle (docs/node-home.md Appendix A)', () => {
  let dir: string;
  let built: HeartwoodHome;
  let gitDir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'forge-'));
    built = await buildHeartwoodHome(path.join(dir, 'home'));
    gitDir = built.repo.gitDir;
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('derives the golden NIDs of alice and bob', () => {
    expect(built.alice.keyPair.nid).toBe(ALICE);
    expect(built.bob.keyPair.nid).toBe(BOB);
  });

  it('reproduces the RID and stores the repository under its name', () => {
    expect(built.repo.rid).toBe('rad:z42hL2jL4XNk6K8oHQaSWfMgCL7ji');
    expect(gitDir).toBe(path.join(dir, 'home', 'storage', 'z42hL2jL4XNk6K8oHQaSWfMgCL7ji'));
    expect(git(gitDir, 'cat-file', '-p', `0656c217f917c3e06234771e9ecae53aba5e173e:embeds/radicle.json`)).toContain('"heartwood"');
    expect(git(gitDir, 'rev-parse', '0656c217f917c3e06234771e9ecae53aba5e173e:embeds/radicle.json')).toBe('d96f425412c9f8ad5d9a9a05c9831d0728e2338d');
  });

  it('reproduces the default branch head f2de534', () => {
    expect(git(gitDir, 'rev-parse', `refs/namespaces/${ALICE}/refs/heads/master`)).toBe('f2de534b5e81d7c6e2dcaf58c3dd91573c0a0354');
    expect(git(gitDir, 'rev-parse', 'refs/heads/master')).toBe('f2de534b5e81d7c6e2dcaf58c3dd91573c0a0354');
    expect(git(gitDir, 'symbolic-ref', 'HEAD')).toBe('refs/heads/master');
  });

  it('reproduces the identity root commit 0656c217', () => {
    expect(built.repo.identityRoot).toBe('0656c217f917c3e06234771e9ecae53aba5e173e');
    expect(git(gitDir, 'rev-parse', `refs/namespaces/${ALICE}/refs/rad/root`)).toBe(built.repo.identityRoot);
    expect(git(gitDir, 'symbolic-ref', `refs/namespaces/${ALICE}/refs/rad/id`)).toBe(
      `refs/namespaces/${ALICE}/refs/cobs/xyz.radicle.id/0656c217f917c3e06234771e9ecae53aba5e173e`,
    );
  });

  it('reproduces the first sigrefs commit 99c54970', () => {
    const history = git(gitDir, 'rev-list', `refs/namespaces/${ALICE}/refs/rad/sigrefs`).split('\n');
    expect(history.at(-1)).toBe('99c549702e2bcfe02b0e68d4a2224fb7a1524529');
    expect(history).toHaveLength(2);
  });

  it('reproduces the Add Bob revision blob 053541ba and commit 0ca42d37, adopted as refs/rad/id', () => {
    expect(built.addBob).toEqual({ revision: '0ca42d376bd566631083c8913cf86bec722da392', adopted: true });
    expect(git(gitDir, 'rev-parse', '0ca42d376bd566631083c8913cf86bec722da392:embeds/radicle.json')).toBe('053541ba7b90534b35dd8718e0ceaa408979b02b');
    expect(git(gitDir, 'rev-parse', 'refs/rad/id')).toBe('0ca42d376bd566631083c8913cf86bec722da392');
  });

  it('keeps the canonical head once bob, a delegate with threshold 2, has the same tip', () => {
    expect(git(gitDir, 'rev-parse', `refs/namespaces/${BOB}/refs/heads/master`)).toBe('f2de534b5e81d7c6e2dcaf58c3dd91573c0a0354');
    expect(built.repo.head).toBe('f2de534b5e81d7c6e2dcaf58c3dd91573c0a0354');
  });

  it('writes a repository git fsck accepts', () => {
    expect(() => git(gitDir, 'fsck', '--strict', '--no-dangling')).not.toThrow();
  });
});
