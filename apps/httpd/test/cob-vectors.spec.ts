import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { didFromNid } from '@forge-httpd/identity';
import { assignIssue, commentIssue, createIssue, createPatch, type CobWriteContext, labelIssue } from '@forge-httpd/cob/write';
import { type Oid, openGitRepository } from '@forge-httpd/storage';
import { serializeCommit, writeObject } from '@forge-httpd/storage/write';
import { buildHeartwoodHome, HEARTWOOD_TEST_TIME, type HeartwoodHome } from '@forge-httpd/builder';
import { expectGolden, getJson, startTestServer } from './support/index.js';
import { StorageRuntime } from '@forge-httpd/storage';

const runtime = new StorageRuntime();

// docs/node-home.md Appendix A: ids printed by heartwood's CLI transcripts (radicle flavour).
const VECTORS = {
  issue: 'd87dcfe8c2b3200e78b128d9b959cfdf7063fefe',
  assign: 'f2f5d80d',
  label: '96bf0882',
  unassign: '6ae9d0c6',
  comment: '2193e871916d18ddd0416b5198cb08c5dc7416b7',
  reply: '880fdcd94b36e412fc906b510f41008700d65424',
  branch: '20aa5dde6210796c3a2f04079b42316a31d02689',
  patch: '696ec5508494692899337afe6713fe1796d0315c',
};
const MASTER = 'f2de534b5e81d7c6e2dcaf58c3dd91573c0a0354' as Oid;

describe('COB writes on the heartwood recipe home reproduce the Appendix A ids', () => {
  let dir: string;
  let built: HeartwoodHome;
  let context: CobWriteContext;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'forge-'));
    built = await buildHeartwoodHome(path.join(dir, 'home'));
    context = {
      gitDir: built.repo.gitDir,
      keyPair: built.alice.keyPair,
      alias: 'alice',
      time: HEARTWOOD_TEST_TIME,
      flavour: 'radicle',
      // The transcripts ran before the "Add Bob" identity revision of the recipe.
      resource: built.repo.identityRoot,
    };
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('creates the issue, then assign, label and unassign changes with the golden ids', async () => {
    const issue = await createIssue(context, { title: 'flux capacitor underpowered', description: 'Flux capacitor power requirements exceed current supply' });
    expect(issue).toBe(VECTORS.issue);
    const assign = await assignIssue(context, { issue, assignees: [didFromNid(built.alice.keyPair.nid)] });
    const label = await labelIssue(context, { issue, labels: ['good-first-issue'] });
    const unassign = await assignIssue(context, { issue, assignees: [] });
    expect([assign, label, unassign].map((oid) => oid.slice(0, 8))).toEqual([VECTORS.assign, VECTORS.label, VECTORS.unassign]);
  });

  it('adds the comment and the reply with the golden ids', async () => {
    const comment = await commentIssue(context, { issue: VECTORS.issue as Oid, body: 'The flux capacitor needs 1.21 Gigawatts' });
    expect(comment).toBe(VECTORS.comment);
    const reply = await commentIssue(context, { issue: VECTORS.issue as Oid, body: 'More power!', replyTo: comment });
    expect(reply).toBe(VECTORS.reply);
  });

  it('opens the "First change" patch with the golden id', async () => {
    const git = openGitRepository(built.repo.gitDir, { runtime });
    const parent = await git.readCommit(MASTER);
    await git.close();
    const person = { name: 'radicle', email: 'radicle@localhost', time: HEARTWOOD_TEST_TIME, offset: '+0000' };
    const branch = await writeObject(
      built.repo.gitDir,
      'commit',
      serializeCommit({ tree: parent?.tree as Oid, parents: [MASTER], author: person, committer: person, message: 'First change\n' }),
    );
    expect(branch).toBe(VECTORS.branch);
    const patch = await createPatch(context, { title: 'First change', description: '', base: MASTER, oid: branch });
    expect(patch).toBe(VECTORS.patch);
  });

  it.each([
    ['radicle', 200, 1],
    ['forge', 404, 0],
  ] as const)('serves the issue under flavour %s only when the flavour matches', async (flavour, status, count) => {
    const server = await startTestServer({ home: built.context.home, flavour });
    try {
      const base = `${server.baseUrl}/api/v1/repos/${built.repo.rid}`;
      const issue = await getJson(`${base}/issues/${VECTORS.issue}`);
      expect(issue.status).toBe(status);
      expect(((await getJson(`${base}/issues`)).body as unknown[]).length).toBe(count);
      expect(((await getJson(`${base}/patches`)).body as unknown[]).length).toBe(count);
      if (flavour === 'radicle') {
        expectGolden('cob-heartwood-issue', issue.body);
        expectGolden('cob-heartwood-patch', (await getJson(`${base}/patches/${VECTORS.patch}`)).body);
      }
    } finally {
      await server.close();
    }
  });
});
