import type { Patch, RepoInfo } from '@forge-httpd/api-types';
import {
  assignPatch,
  commentReview,
  commentRevision,
  createPatch,
  editRevision,
  labelPatch,
  mergePatch,
  reactRevision,
  reactRevisionComment,
  resolveReviewComment,
  revisePatch,
  reviewPatch,
  setPatchState,
} from '@forge-httpd/cob/write';
import { didFromNid } from '@forge-httpd/identity';
import type { Oid } from '@forge-httpd/storage';
import { type BuiltHome, peerByAlias, setBranches } from '@forge-httpd/builder';
import { buildCobHome, cobWriter, expectGolden, getJson, makeTempDir, removeTempDir, startTestServer, type TestServer } from './support/index.js';

let dir: string;
let built: BuiltHome;
let server: TestServer;
const ids: Record<string, Oid> = {};
const { repo, as, push } = cobWriter(() => built);

function url(path: string): string {
  return `${server.baseUrl}/api/v1/repos/${repo().rid}${path}`;
}

async function writePatches(): Promise<void> {
  const base = repo().head;
  const v1 = await push('bob', 'feature', 'feature.txt');
  const patch = (ids['feature'] = await createPatch(as('bob'), { title: 'Add feature', description: 'First version', base, oid: v1.oid }));
  const v2 = await push('bob', 'feature', 'feature-test.txt', v1);
  ids['v2'] = await revisePatch(as('bob'), { patch, description: 'With tests', base, oid: v2.oid });
  await editRevision(as('bob'), { patch, revision: ids['v2'], description: 'With tests and docs' });
  ids['reject'] = await reviewPatch(as('alice'), { patch, revision: patch, verdict: 'reject', summary: 'Needs tests' });
  ids['accept'] = await reviewPatch(as('eve'), { patch, revision: ids['v2'], verdict: 'accept', summary: 'LGTM' });
  const location = { commit: v2.oid, path: 'feature-test.txt', old: null, new: { type: 'lines' as const, range: { start: 0, end: 1 } } };
  ids['nit'] = await commentReview(as('eve'), { patch, review: ids['accept'], body: 'Nit: name', location });
  await commentReview(as('bob'), { patch, review: ids['accept'], body: 'Renamed', replyTo: ids['nit'] });
  await resolveReviewComment(as('bob'), { patch, review: ids['accept'], comment: ids['nit'] });
  await reactRevision(as('eve'), { patch, revision: ids['v2'], reaction: '🚀', location });
  await reactRevision(as('bob'), { patch, revision: ids['v2'], reaction: '❤' });
  const thanks = await commentRevision(as('alice'), { patch, revision: ids['v2'], body: 'Thanks!' });
  await reactRevisionComment(as('bob'), { patch, revision: ids['v2'], comment: thanks, reaction: '🙏' });
  await labelPatch(as('alice'), { patch, labels: ['feature'] });
  await assignPatch(as('alice'), { patch, assignees: [didFromNid(peerByAlias(built.context, 'bob').keyPair.nid)] });
  await setBranches(built.context, repo(), { peer: peerByAlias(built.context, 'alice'), branches: [{ name: 'main', at: v2.oid }] });
  await mergePatch(as('alice'), { patch, revision: ids['v2'], commit: v2.oid });
  const idea = await push('eve', 'idea', 'idea.txt');
  ids['draft'] = await createPatch(as('eve'), { title: 'Rough idea', description: 'Do not merge', base, oid: idea.oid, draft: true });
  const old = await push('bob', 'old', 'old.txt');
  ids['archived'] = await createPatch(as('bob'), { title: 'Old approach', description: '', base, oid: old.oid });
  await setPatchState(as('bob'), { patch: ids['archived'], state: 'archived' });
  const fix = await push('eve', 'fix', 'fix.txt');
  ids['open'] = await createPatch(as('eve'), { title: 'Fix typo', description: 'Small fix', base, oid: fix.oid });
  // Ignored: eve may not merge; alice's merge of a commit not on her branch is skipped.
  await mergePatch(as('eve', { force: true }), { patch: ids['open'], revision: ids['open'], commit: fix.oid });
  await mergePatch(as('alice'), { patch: ids['open'], revision: ids['open'], commit: fix.oid });
  ids['invalid'] = await createPatch(as('eve', { force: true }), { title: 'Spam', description: '', base, oid: fix.oid, labels: ['spam'] });
}

beforeAll(async () => {
  dir = await makeTempDir();
  built = await buildCobHome(dir, { forks: ['bob', 'eve'] });
  await writePatches();
  server = await startTestServer({ home: built.home });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await removeTempDir(dir);
});

async function patchIds(query: string): Promise<Oid[]> {
  const response = await getJson(url(`/patches${query}`));
  expect(response.status).toBe(200);
  return (response.body as Patch[]).map((patch) => patch.id as Oid);
}

describe('GET /repos/{rid}/patches', () => {
  it.each([
    ['', ['open']],
    ['?status=open', ['open']],
    ['?status=draft', ['draft']],
    ['?status=archived', ['archived']],
    ['?status=merged', ['feature']],
    ['?status=all', ['open', 'archived', 'draft', 'feature']],
    ['?status=all&perPage=3&page=1', ['feature']],
  ])('lists %s newest first', async (query, names) => {
    expect(await patchIds(query)).toEqual(names.map((name) => ids[name]));
  });

  it('answers 400 for an unknown status', async () => {
    expect((await getJson(url('/patches?status=closed'))).status).toBe(400);
  });
});

describe('GET /repos/{rid}/patches/{id}', () => {
  it('shows a merged patch with two revisions, reviews, code locations, reactions and refs', async () => {
    const response = await getJson(url(`/patches/${ids['feature']}`));
    expect(response.status).toBe(200);
    expectGolden('cob-patch-feature', response.body);
  });

  it('skips a merge by a non-delegate and one whose commit is not on the merger branch', async () => {
    const patch = (await getJson(url(`/patches/${ids['open']}`))).body as Patch;
    expect(patch.state).toEqual({ status: 'open' });
    expect(patch.merges).toEqual([]);
  });

  it('answers 404 for a patch whose root a node rejects', async () => {
    expect((await getJson(url(`/patches/${ids['invalid']}`))).status).toBe(404);
  });
});

describe('patch counts in repository info', () => {
  it('counts valid patches by state', async () => {
    const info = (await getJson(url(''))).body as RepoInfo;
    const project = info.payloads['xyz.forge.project'] as { meta: { patches: unknown } };
    expect(project.meta.patches).toEqual({ open: 1, draft: 1, archived: 1, merged: 1 });
  });
});
