import { didFromNid } from '@forge-httpd/identity';
import type { Oid } from '@forge-httpd/storage';
import { evaluateChanges } from '../dag/evaluate-changes.js';
import type { FoldEnv } from '../model/fold-env.js';
import { alice, bob, change, doc, env, eve, oid } from '../testing/fixtures.testing.js';
import { patchFolder } from './fold-patch.js';
import { viewPatch } from './patch-view.js';

const ROOT = oid(0x100);
const BASE = oid(0xb0);
const HEAD1 = oid(0xc1);
const HEAD2 = oid(0xc2);
const root = change({
  id: ROOT,
  author: bob.nid,
  timestamp: 100,
  actions: [
    { type: 'revision', description: 'First try', base: BASE, oid: HEAD1 },
    { type: 'edit', title: 'Add feature', target: 'delegates' },
  ],
});

function evaluate(changes: ReturnType<typeof change>[], foldEnv: FoldEnv = env()) {
  const result = evaluateChanges({ rootId: ROOT, changes: [root, ...changes], folder: patchFolder(foldEnv) });
  return result === null ? null : { ...result, patch: viewPatch(result.state, () => []) };
}

let n = 0x200;
function next(fields: Omit<Parameters<typeof change>[0], 'id'>) {
  return change({ id: oid(++n), ...fields });
}

describe('patch fold', () => {
  it('creates a patch from a revision and an edit', () => {
    const patch = evaluate([])?.patch;
    expect(patch).toMatchObject({ id: ROOT, author: bob.nid, title: 'Add feature', state: { status: 'open', conflicts: [] }, timestamp: 100 });
    expect(patch?.revisions.map((r) => [r.id, r.base, r.oid, r.description])).toEqual([[ROOT, BASE, HEAD1, 'First try']]);
  });

  it('folds revisions, reviews with verdicts and code locations, review comments and a merge', () => {
    const location = { commit: HEAD2, path: 'src/a.rs', old: null, new: { type: 'lines', range: { start: 3, end: 5 } } };
    const rev2 = next({ parents: [ROOT], author: bob.nid, timestamp: 110, actions: [{ type: 'revision', description: 'Second try', base: BASE, oid: HEAD2 }] });
    const review = next({
      parents: [rev2.id],
      author: alice.nid,
      timestamp: 120,
      actions: [{ type: 'review', revision: rev2.id, verdict: 'accept', summary: 'LGTM' }],
    });
    const comment = next({
      parents: [review.id],
      author: eve.nid,
      timestamp: 130,
      actions: [{ type: 'review.comment', review: review.id, body: 'nit', location }],
    });
    const reply = next({
      parents: [comment.id],
      author: bob.nid,
      timestamp: 140,
      actions: [{ type: 'review.comment', review: review.id, body: 'fixed', reply_to: comment.id }],
    });
    const resolve = next({
      parents: [reply.id],
      author: alice.nid,
      timestamp: 145,
      actions: [{ type: 'review.comment.resolve', review: review.id, comment: comment.id }],
    });
    const react = next({
      parents: [resolve.id],
      author: eve.nid,
      timestamp: 150,
      actions: [
        { type: 'revision.react', revision: rev2.id, reaction: '🚀', active: true, location },
        { type: 'revision.react', revision: rev2.id, reaction: '👍', active: true },
      ],
    });
    const merge = next({ parents: [react.id], author: alice.nid, timestamp: 160, actions: [{ type: 'merge', revision: rev2.id, commit: HEAD2 }] });
    const patch = evaluate([rev2, review, comment, reply, resolve, react, merge])?.patch;
    expect(patch?.state).toEqual({ status: 'merged', revision: rev2.id, commit: HEAD2 });
    expect(patch?.merges).toEqual([{ author: alice.nid, revision: rev2.id, commit: HEAD2, timestamp: 160 }]);
    const second = patch?.revisions[1];
    expect(second?.reviews.map((r) => [r.author, r.verdict, r.summary])).toEqual([[alice.nid, 'accept', 'LGTM']]);
    expect(second?.reviews[0]?.comments.map((c) => [c.body, c.replyTo, c.resolved, c.location])).toEqual([
      ['nit', null, true, location],
      ['fixed', comment.id, false, null],
    ]);
    expect(second?.reactions).toEqual([
      { location: null, emoji: '👍', authors: [eve.nid] },
      { location, emoji: '🚀', authors: [eve.nid] },
    ]);
  });

  it('lists a comment twice when its change touches the same thread again, like the node', () => {
    const review = next({ parents: [ROOT], author: alice.nid, actions: [{ type: 'review', revision: ROOT, summary: 's' }] });
    const id = oid(0x2ff);
    const both = change({
      id,
      parents: [review.id],
      author: alice.nid,
      actions: [
        { type: 'review.comment', review: review.id, body: 'b' },
        { type: 'review.comment.react', review: review.id, comment: id, reaction: '👀', active: true },
      ],
    });
    expect(evaluate([review, both])?.patch.revisions[0]?.reviews[0]?.comments.map((c) => c.id)).toEqual([both.id, both.id]);
  });

  it('ignores a merge whose commit is not on the merger default branch', () => {
    const merge = next({ parents: [ROOT], author: alice.nid, actions: [{ type: 'merge', revision: ROOT, commit: HEAD1 }] });
    const result = evaluate([merge], env({ onBranch: () => false }));
    expect(result?.patch.state).toEqual({ status: 'open', conflicts: [] });
    expect(result?.applied).toContain(merge.id);
  });

  it('needs the threshold of delegates to merge and reports conflicting merges', () => {
    const twoOfTwo = env({ doc: doc([alice.nid, eve.nid], 2) });
    const m1 = next({ parents: [ROOT], author: alice.nid, actions: [{ type: 'merge', revision: ROOT, commit: HEAD1 }] });
    expect(evaluate([m1], twoOfTwo)?.patch.state.status).toBe('open');
    const m2 = next({ parents: [m1.id], author: eve.nid, actions: [{ type: 'merge', revision: ROOT, commit: HEAD1 }] });
    expect(evaluate([m1, m2], twoOfTwo)?.patch.state).toEqual({ status: 'merged', revision: ROOT, commit: HEAD1 });
    const oneOfTwo = env({ doc: doc([alice.nid, eve.nid], 1) });
    const m3 = next({ parents: [m1.id], author: eve.nid, actions: [{ type: 'merge', revision: ROOT, commit: HEAD2 }] });
    expect(evaluate([m1, m3], oneOfTwo)?.patch.state).toEqual({
      status: 'open',
      conflicts: [
        [ROOT, HEAD1],
        [ROOT, HEAD2],
      ],
    });
  });

  it('lets the author draft, archive and reopen, but not a merged patch', () => {
    const draft = next({ parents: [ROOT], author: bob.nid, timestamp: 101, actions: [{ type: 'lifecycle', state: { status: 'draft' } }] });
    expect(evaluate([draft])?.patch.state).toEqual({ status: 'draft' });
    const merge = next({ parents: [ROOT], author: alice.nid, timestamp: 101, actions: [{ type: 'merge', revision: ROOT, commit: HEAD1 }] });
    const reopen = next({ parents: [merge.id], author: bob.nid, timestamp: 102, actions: [{ type: 'lifecycle', state: { status: 'archived' } }] });
    const result = evaluate([merge, reopen]);
    expect(result?.patch.state.status).toBe('merged');
    expect(result?.applied).toContain(reopen.id);
  });

  it.each<[string, Record<string, unknown>[], Oid?]>([
    ['assign', [{ type: 'assign', assignees: [didFromNid(eve.nid)] }]],
    ['merge', [{ type: 'merge', revision: ROOT, commit: HEAD1 }]],
    ['label', [{ type: 'label', labels: ['x'] }]],
    ['edit', [{ type: 'edit', title: 'mine now', target: 'delegates' }]],
    ['revision.edit', [{ type: 'revision.edit', revision: ROOT, description: 'hijack' }]],
  ])('denies a non-delegate stranger the %s action', (_type, actions) => {
    const bad = next({ parents: [ROOT], author: eve.nid, actions });
    expect(evaluate([bad])?.applied).toEqual([ROOT]);
  });

  it('keeps one review per reviewer and revision and redacts reviews and revisions', () => {
    const rev2 = next({ parents: [ROOT], author: eve.nid, timestamp: 101, actions: [{ type: 'revision', description: 'alt', base: BASE, oid: HEAD2 }] });
    const r1 = next({ parents: [rev2.id], author: alice.nid, timestamp: 102, actions: [{ type: 'review', revision: ROOT, verdict: 'reject' }] });
    const r2 = next({ parents: [r1.id], author: alice.nid, timestamp: 103, actions: [{ type: 'review', revision: ROOT, verdict: 'accept' }] });
    const redact = next({ parents: [r2.id], author: eve.nid, timestamp: 104, actions: [{ type: 'revision.redact', revision: rev2.id }] });
    const patch = evaluate([rev2, r1, r2, redact])?.patch;
    expect(patch?.revisions.map((r) => r.id)).toEqual([ROOT]);
    expect(patch?.revisions[0]?.reviews.map((r) => r.verdict)).toEqual(['reject']);
    const unredact = next({ parents: [r2.id], author: alice.nid, timestamp: 105, actions: [{ type: 'review.redact', review: r1.id }] });
    expect(evaluate([rev2, r1, r2, unredact])?.patch.revisions[0]?.reviews).toEqual([]);
  });

  it('rejects a review edit with neither summary nor verdict and the redaction of the root revision', () => {
    const review = next({ parents: [ROOT], author: alice.nid, actions: [{ type: 'review', revision: ROOT, summary: 'ok' }] });
    const empty = next({ parents: [review.id], author: alice.nid, actions: [{ type: 'review.edit', review: review.id }] });
    const redactRoot = next({ parents: [ROOT], author: bob.nid, actions: [{ type: 'revision.redact', revision: ROOT }] });
    expect(evaluate([review, empty, redactRoot])?.applied).toEqual([ROOT, review.id]);
  });
});
