import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { InvalidInputError, keyPairFromSeed } from '@forge-httpd/identity';
import { initBareRepository } from '../git/write/init-bare-repository.js';
import { writeObject } from '../git/write/write-object.js';
import type { Oid } from '../git/objects/oid.js';
import { runGit } from '../git/processes/run-git.js';
import { formatSignedRefs } from './format-signed-refs.js';
import { writeSignedRefs } from './write-signed-refs.js';
import { StorageRuntime } from '../git/storage-runtime.js';

const runtime = new StorageRuntime();

// docs/node-home.md Appendix A (radicle flavour, seed ff…ff, GIT_COMMITTER_DATE=1671125284).
const ALICE = keyPairFromSeed(new Uint8Array(32).fill(0xff));
const ROOT = '0656c217f917c3e06234771e9ecae53aba5e173e' as Oid;
const HEAD = 'f2de534b5e81d7c6e2dcaf58c3dd91573c0a0354' as Oid;
const FIRST_SIGREFS = '99c549702e2bcfe02b0e68d4a2224fb7a1524529';
const TIME = 1671125284;

const REFS = new Map<string, Oid>([
  ['refs/rad/root', ROOT],
  ['refs/heads/master', HEAD],
  [`refs/cobs/xyz.radicle.id/${ROOT}`, ROOT],
  ['refs/rad/id', ROOT],
]);

describe('signed refs writer', () => {
  let dir: string;
  let gitDir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'forge-'));
    gitDir = path.join(dir, 'repo.git');
    await initBareRepository(gitDir);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('formats the refs blob sorted by name bytes without sigrefs and zero oids', () => {
    const blob = formatSignedRefs([...REFS, ['refs/rad/sigrefs', HEAD], ['refs/heads/zero', '0'.repeat(40) as Oid]]);
    expect(blob.toString()).toBe(`${ROOT} refs/cobs/xyz.radicle.id/${ROOT}\n${HEAD} refs/heads/master\n` + `${ROOT} refs/rad/id\n${ROOT} refs/rad/root\n`);
  });

  it("reproduces heartwood's first sigrefs commit id and points the namespace ref at it", async () => {
    const commit = await writeSignedRefs({ gitDir, keyPair: ALICE, refs: REFS, time: TIME });
    expect(commit).toBe(FIRST_SIGREFS);
    const { stdout } = await runGit({
      processes: runtime.processes,
      gitDir,
      args: ['rev-parse', `refs/namespaces/${ALICE.nid}/refs/rad/sigrefs`],
    });
    expect(stdout.toString().trim()).toBe(FIRST_SIGREFS);
  });

  it('returns the parent without writing when the refs did not change', async () => {
    const again = await writeSignedRefs({ gitDir, keyPair: ALICE, refs: REFS, time: TIME + 60 });
    expect(again).toBe(FIRST_SIGREFS);
  });

  it('chains a new commit to the previous one when the refs changed', async () => {
    const refs = new Map(REFS).set('refs/tags/v1', HEAD);
    const next = await writeSignedRefs({ gitDir, keyPair: ALICE, refs, time: TIME + 60, parentLine: true });
    const { stdout } = await runGit({ processes: runtime.processes, gitDir, args: ['cat-file', '-p', next] });
    expect(stdout.toString()).toContain(`parent ${FIRST_SIGREFS}\n`);
    expect(stdout.toString()).toContain(`author radicle <${ALICE.nid}> ${TIME + 60} +0000\n`);
    const blob = await runGit({ processes: runtime.processes, gitDir, args: ['cat-file', 'blob', `${next}:refs`] });
    expect(blob.stdout.toString()).toContain(`${FIRST_SIGREFS} refs/rad/sigrefs-parent\n`);
  });
});

describe('signed refs writer over the namespace it signs', () => {
  const namespace = `refs/namespaces/${ALICE.nid}/`;
  let dir: string;
  let gitDir: string;
  let blobs: Oid[];
  const git = async (...args: string[]): Promise<string> => (await runGit({ processes: runtime.processes, gitDir, args })).stdout.toString();
  const signedBlob = (commit: Oid): Promise<string> => git('cat-file', 'blob', `${commit}:refs`);

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'forge-'));
    gitDir = path.join(dir, 'repo.git');
    await initBareRepository(gitDir);
    blobs = await Promise.all(['a', 'b', 'c'].map((text) => writeObject(gitDir, 'blob', Buffer.from(text))));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('signs the refs the namespace holds, loose and packed, as git lists them', async () => {
    await git('update-ref', `${namespace}refs/heads/main`, blobs[0] as Oid);
    await git('pack-refs', '--all');
    await git('update-ref', `${namespace}refs/tags/v1`, blobs[1] as Oid);
    await git('update-ref', `${namespace}refs/other/skipped`, blobs[2] as Oid);
    const commit = await writeSignedRefs({ gitDir, keyPair: ALICE, time: TIME });
    expect(await signedBlob(commit)).toBe(`${blobs[0]} refs/heads/main\n${blobs[1]} refs/tags/v1\n`);
  });

  it('moves refs alongside the signed refs in one step, signed with their new values', async () => {
    const before = (await git('rev-parse', `${namespace}refs/rad/sigrefs`)).trim() as Oid;
    const cob = `${namespace}refs/cobs/xyz.forge.issue/${blobs[2]}`;
    const commit = await writeSignedRefs({ gitDir, keyPair: ALICE, time: TIME + 1, alongside: [{ name: cob, oid: blobs[2] as Oid }] });
    expect(commit).not.toBe(before);
    expect((await git('rev-parse', cob, `${namespace}refs/rad/sigrefs`)).trim().split('\n')).toEqual([blobs[2], commit]);
    expect(await signedBlob(commit)).toContain(`${blobs[2]} refs/cobs/xyz.forge.issue/${blobs[2]}\n`);
  });

  it('moves a ref alongside that is not signed without a new signature', async () => {
    const before = (await git('rev-parse', `${namespace}refs/rad/sigrefs`)).trim() as Oid;
    const other = `${namespace}refs/other/moved`;
    const commit = await writeSignedRefs({ gitDir, keyPair: ALICE, time: TIME + 2, alongside: [{ name: other, oid: blobs[0] as Oid }] });
    expect(commit).toBe(before);
    expect((await git('rev-parse', other)).trim()).toBe(blobs[0]);
  });

  it('refuses a ref alongside that is outside the namespace, and moves nothing', async () => {
    const before = await git('for-each-ref');
    await expect(
      writeSignedRefs({ gitDir, keyPair: ALICE, time: TIME + 3, alongside: [{ name: 'refs/heads/main', oid: blobs[1] as Oid }] }),
    ).rejects.toBeInstanceOf(InvalidInputError);
    expect(await git('for-each-ref')).toBe(before);
  });
});
