import type { Patch } from '@forge-httpd/api-types';
import {
  commentRevision,
  createPatch,
  editPatchTitle,
  editReview,
  mergePatch,
  reactReview,
  revisePatch,
  reviewPatch,
  updatePatch,
} from '@forge-httpd/cob/write';
import type { Oid } from '@forge-httpd/storage';
import { type BuiltHome, peerByAlias, setBranches } from '@forge-httpd/builder';
import { CobRejectionLog } from '../src/cobs/cob-rejection-log.js';
import { buildCobHome, cobWriter, getJson, makeTempDir, removeTempDir, startTestServer, type TestServer } from './support/index.js';

// What current Radicle tools write (radicle-desktop edits reviews only with review.edit.v2;
// anyone may react to a review): a patch must keep every change that follows those actions.
let dir: string;
let built: BuiltHome;
let server: TestServer;
const ids: Record<string, Oid> = {};
const { repo, as, push } = cobWriter(() => built);

async function writeReviewedPatch(): Promise<void> {
  const base = repo().head;
  const v1 = await push('bob', 'feature', 'feature.txt');
  const patch = (ids['reviewed'] = await createPatch(as('bob'), { title: 'Add feature', description: 'First version', base, oid: v1.oid }));
  ids['review'] = await reviewPatch(as('eve'), { patch, revision: patch, verdict: 'reject', summary: 'Needs tests' });
  await editReview(as('eve'), { patch, review: ids['review'], verdict: 'reject', summary: 'Needs tests and docs' });
  await reactReview(as('bob'), { patch, review: ids['review'], reaction: '👀' });
  await reactReview(as('alice'), { patch, review: ids['review'], reaction: '👍' });
  const v2 = await push('bob', 'feature', 'feature-test.txt', v1);
  ids['v2'] = await revisePatch(as('bob'), { patch, description: 'With tests', base, oid: v2.oid });
  await editReview(as('eve'), { patch, review: ids['review'], verdict: 'accept', version: 1 });
  await commentRevision(as('alice'), { patch, revision: ids['v2'], body: 'Merging, thanks' });
  await setBranches(built.context, repo(), { peer: peerByAlias(built.context, 'alice'), branches: [{ name: 'main', at: v2.oid }] });
  await mergePatch(as('alice'), { patch, revision: ids['v2'], commit: v2.oid });
}

async function writeRetargetedPatch(): Promise<void> {
  const base = repo().head;
  const fix = await push('bob', 'backport', 'backport.txt');
  const patch = (ids['backport'] = await createPatch(as('bob'), { title: 'Backport', description: 'For 1.0', base, oid: fix.oid }));
  await editPatchTitle(as('bob'), { patch, title: 'Backport to 1.0', targetBranch: 'refs/heads/release/1.0' });
  await setBranches(built.context, repo(), { peer: peerByAlias(built.context, 'alice'), branches: [{ name: 'release/1.0', at: fix.oid }] });
  await mergePatch(as('alice'), { patch, revision: patch, commit: fix.oid });
}

async function writeFuturePatch(): Promise<void> {
  const base = repo().head;
  const tip = await push('eve', 'future', 'future.txt');
  const patch = (ids['future'] = await createPatch(as('eve'), { title: 'From the future', description: '', base, oid: tip.oid }));
  // An action no released heartwood knows: the change and what follows are dropped, and said so.
  ids['unknown'] = await updatePatch(as('eve', { force: true }), { patch, actions: [{ type: 'review.summon', revision: patch }], message: 'Future' });
  const after = { type: 'revision.comment', revision: patch, body: 'After the unknown action' };
  await updatePatch(as('eve', { force: true }), { patch, actions: [after], message: 'Comment', tips: [ids['unknown']] });
}

beforeAll(async () => {
  dir = await makeTempDir();
  built = await buildCobHome(dir, { forks: ['bob', 'eve'], name: 'current', seed: 'c'.repeat(64) });
  await writeReviewedPatch();
  await writeRetargetedPatch();
  await writeFuturePatch();
  server = await startTestServer({ home: built.home });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await removeTempDir(dir);
});

async function patch(name: string): Promise<Patch> {
  const response = await getJson(`${server.baseUrl}/api/v1/repos/${repo().rid}/patches/${ids[name]}`);
  expect(response.status).toBe(200);
  return response.body as Patch;
}

describe('patches written by current Radicle', () => {
  it('shows every change after a v2 review edit, review reactions and a v1 edit without summary', async () => {
    const reviewed = await patch('reviewed');
    expect(reviewed.state).toEqual({ status: 'merged', revision: ids['v2'], commit: reviewed.revisions[1]?.oid });
    expect(reviewed.revisions.map((r) => r.description)).toEqual(['First version', 'With tests']);
    expect(reviewed.revisions[1]?.discussions.map((c) => c.body)).toEqual(['Merging, thanks']);
    const review = reviewed.revisions[0]?.reviews[0];
    expect(review).toMatchObject({ id: ids['review'], verdict: 'accept', summary: 'Needs tests and docs' });
    expect(review?.reactions.map((r) => [r.emoji, r.authors.map((a) => a.alias)])).toEqual([
      ['👀', ['bob']],
      ['👍', ['alice']],
    ]);
  });

  it('shows a review without a summary as an empty string', async () => {
    const base = repo().head;
    const tip = await push('bob', 'quiet', 'quiet.txt');
    const quiet = await createPatch(as('bob'), { title: 'Quiet', description: '', base, oid: tip.oid });
    await reviewPatch(as('alice'), { patch: quiet, revision: quiet, verdict: 'accept' });
    const body = (await getJson(`${server.baseUrl}/api/v1/repos/${repo().rid}/patches/${quiet}`)).body as Patch;
    expect(body.revisions[0]?.reviews[0]?.summary).toBe('');
  });

  it('merges a patch targeting a named branch and shows the target as its branch name', async () => {
    const backport = await patch('backport');
    expect(backport).toMatchObject({ title: 'Backport to 1.0', target: 'refs/heads/release/1.0', state: { status: 'merged' } });
  });

  it('drops an unknown action with the changes after it, logs it once and counts it', async () => {
    const future = await patch('future');
    expect(future.revisions[0]?.discussions).toEqual([]);
    await patch('future');
    const lines = server.logs.filter((line) => line.includes(`xyz.forge.patch ${ids['future']}`));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`dropped 2 change(s) from ${ids['unknown']}`);
    expect(lines[0]).toContain('unknown patch action review.summon');
    const counts = server.server.app.get(CobRejectionLog).snapshot();
    expect(counts).toContainEqual({ typeName: 'xyz.forge.patch', reason: 'unknown-action', changes: 2, objects: 1 });
  });
});
