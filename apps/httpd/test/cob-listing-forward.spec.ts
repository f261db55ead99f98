import { execFileSync } from 'node:child_process';
import type { Issue, Patch } from '@forge-httpd/api-types';
import type { CobEvaluation } from '@forge-httpd/cob';
import { commentIssue, createIssue, createPatch, mergePatch, setIssueState, setPatchState } from '@forge-httpd/cob/write';
import type { Oid } from '@forge-httpd/storage';
import { type BuiltHome, peerByAlias, setBranches } from '@forge-httpd/builder';
import { CobEvaluations } from '../src/cobs/cob-evaluations.js';
import { buildCobHome, cobWriter, getJson, makeTempDir, removeTempDir, startTestServer, type TestServer } from './support/index.js';

// A server keeps each kind's whole listing with its counts and order, and after refs move
// brings them forward by the objects that changed (and those that consulted a changed ref)
// instead of looking at every object again (issue 14). After any change its answers must be a
// fresh server's.

const ISSUES = 9;

let dir: string;
let built: BuiltHome;
let server: TestServer;
const evaluated: CobEvaluation[] = [];
const writer = cobWriter(() => built);
const issues: Oid[] = [];
const patches: Oid[] = [];
let revision: Oid;
let mergeTip: Oid;

const repoPath = (suffix = ''): string => `/api/v1/repos/${writer.repo().rid}${suffix}`;

const PAGES = [
  '',
  '/issues?status=all',
  '/issues?status=open',
  '/issues?status=closed',
  '/issues?status=all&page=1&perPage=3',
  '/patches?status=all',
  '/patches?status=open',
  '/patches?status=archived',
  '/patches?perPage=1',
];

beforeAll(async () => {
  dir = await makeTempDir();
  built = await buildCobHome(dir, { forks: ['bob', 'eve'] });
  const { as, push } = writer;
  for (let i = 0; i < ISSUES; i += 1) {
    issues.push(await createIssue(as(['alice', 'bob', 'eve'][i % 3] as string), { title: `Issue ${i}`, description: `Body ${i}` }));
    if (i % 4 === 1) await setIssueState(as('alice'), { issue: issues[i] as Oid, state: { status: 'closed', reason: 'solved' } });
  }
  const base = writer.repo().head;
  for (let i = 0; i < 3; i += 1) {
    const tip = await push('bob', `p${i}`, `p${i}.txt`);
    if (i === 0) revision = tip.oid;
    if (i === 2) mergeTip = tip.oid;
    patches.push(await createPatch(as('bob'), { title: `Patch ${i}`, description: '', base, oid: tip.oid }));
  }
  server = await startTestServer({ home: built.home });
  server.server.app.get(CobEvaluations).listen((evaluation) => evaluated.push(evaluation));
}, 120_000);

afterAll(async () => {
  await server?.close();
  await removeTempDir(dir);
});

/** Each page's status and body on `baseUrl`, the repository page (its counts) first. */
async function answers(baseUrl: string): Promise<Map<string, { status: number; body: unknown }>> {
  const result = new Map<string, { status: number; body: unknown }>();
  for (const path of PAGES) {
    const { status, body } = await getJson(`${baseUrl}${repoPath(path)}`);
    result.set(path, { status, body });
  }
  return result;
}

/** The long-lived server's answers, checked against a fresh server's on the same home. */
async function expectFreshAnswers(): Promise<Map<string, { status: number; body: unknown }>> {
  const kept = await answers(server.baseUrl);
  const fresh = await startTestServer({ home: built.home });
  try {
    expect(kept).toEqual(await answers(fresh.baseUrl));
  } finally {
    await fresh.close();
  }
  return kept;
}

const counts = (page: Map<string, { body: unknown }>): unknown => {
  const payloads = (page.get('')?.body as { payloads: Record<string, { meta: unknown }> }).payloads;
  const project = Object.values(payloads)[0]?.meta as { issues: unknown; patches: unknown };
  return { issues: project.issues, patches: project.patches };
};

const ids = (page: Map<string, { body: unknown }>, path: string): string[] => (page.get(path)?.body as Array<Issue | Patch>).map((item) => item.id);

/** Removes every namespace's ref of an issue, as a node does when it drops one. */
function removeIssueRefs(issue: Oid): void {
  const gitDir = writer.repo().gitDir;
  const names = execFileSync('git', ['-C', gitDir, 'for-each-ref', '--format=%(refname)', 'refs/namespaces/'])
    .toString()
    .split('\n')
    .filter((name) => name.endsWith(`/refs/cobs/xyz.forge.issue/${issue}`));
  expect(names.length).toBeGreaterThan(0);
  for (const name of names) execFileSync('git', ['-C', gitDir, 'update-ref', '-d', name]);
}

describe('listings brought forward after refs move', () => {
  it('answer as a fresh server after comments, state changes, new, removed and re-signed objects', async () => {
    const { as } = writer;
    const before = await expectFreshAnswers();
    expect(counts(before)).toEqual({ issues: { open: 7, closed: 2 }, patches: { open: 3, draft: 0, archived: 0, merged: 0 } });

    // A comment on one issue: that issue alone is evaluated again.
    let seen = evaluated.length;
    await commentIssue(as('eve'), { issue: issues[0] as Oid, body: 'Seen it too.' });
    const commented = await expectFreshAnswers();
    expect(evaluated.slice(seen).map((evaluation) => evaluation.typeName)).toEqual(['xyz.forge.issue']);
    expect(ids(commented, '/issues?status=all')).toEqual(ids(before, '/issues?status=all'));

    // A state change moves an issue between the counts and the filtered listings.
    await setIssueState(as('alice'), { issue: issues[2] as Oid, state: { status: 'closed', reason: 'other' } });
    const closed = await expectFreshAnswers();
    expect(counts(closed)).toMatchObject({ issues: { open: 6, closed: 3 } });
    expect(ids(closed, '/issues?status=closed')).toContain(issues[2]);

    // A new issue, newest of all, and an issue whose refs are gone.
    const added = await createIssue(as('bob'), { title: 'Newest', description: 'Just opened' });
    removeIssueRefs(issues[3] as Oid);
    const changed = await expectFreshAnswers();
    expect(ids(changed, '/issues?status=all')[0]).toBe(added);
    expect(ids(changed, '/issues?status=all')).not.toContain(issues[3]);
    expect(counts(changed)).toMatchObject({ issues: { open: 6, closed: 3 } });

    // The author's signed refs now name a branch at a revision: shown at once, with no patch
    // evaluated again (revision refs are looked up when shown).
    seen = evaluated.length;
    await setBranches(built.context, writer.repo(), { peer: peerByAlias(built.context, 'bob'), branches: [{ name: 'copy', at: revision }] });
    const resigned = await expectFreshAnswers();
    expect(evaluated.slice(seen)).toEqual([]);
    const patch = (resigned.get('/patches?status=all')?.body as Patch[]).find((item) => item.id === patches[0]);
    expect(patch?.revisions[0]?.refs).toContain('refs/heads/copy');

    // A merge the delegate wrote before the commit was on its branch counts once it is: the
    // patch consulted that branch, so it is evaluated again though its own refs did not move.
    await mergePatch(as('alice'), { patch: patches[2] as Oid, revision: patches[2] as Oid, commit: mergeTip });
    expect(counts(await expectFreshAnswers())).toMatchObject({ patches: { open: 3, merged: 0 } });
    seen = evaluated.length;
    const alice = peerByAlias(built.context, 'alice');
    await setBranches(built.context, writer.repo(), { peer: alice, branches: [{ name: writer.repo().defaultBranch, at: mergeTip }] });
    const merged = await expectFreshAnswers();
    expect(evaluated.slice(seen).map((evaluation) => evaluation.typeName)).toEqual(['xyz.forge.patch']);
    expect(counts(merged)).toMatchObject({ patches: { open: 2, merged: 1 } });

    // A patch opened since, then its author's signed refs moved: it is found consulting them.
    const eveTip = await writer.push('eve', 'fix', 'fix.txt');
    const evePatch = await createPatch(as('eve'), { title: 'Fix', description: '', base: writer.repo().head, oid: eveTip.oid });
    await expectFreshAnswers();
    await setBranches(built.context, writer.repo(), { peer: peerByAlias(built.context, 'eve'), branches: [{ name: 'fix-copy', at: eveTip.oid }] });
    const eveResigned = await expectFreshAnswers();
    const shown = (eveResigned.get('/patches?status=all')?.body as Patch[]).find((item) => item.id === evePatch);
    expect(shown?.revisions[0]?.refs).toContain('refs/heads/fix-copy');

    // Several changes between two requests, one of them a patch archived.
    await commentIssue(as('alice'), { issue: added, body: 'Thanks.' });
    await setPatchState(as('bob'), { patch: patches[1] as Oid, state: 'archived' });
    await createIssue(as('eve'), { title: 'Another', description: 'One more' });
    const several = await expectFreshAnswers();
    expect(counts(several)).toEqual({ issues: { open: 7, closed: 3 }, patches: { open: 2, draft: 0, archived: 1, merged: 1 } });
    expect(ids(several, '/patches?status=archived')).toEqual([patches[1]]);
  }, 120_000);
});
