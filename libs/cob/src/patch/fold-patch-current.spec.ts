import type { Oid } from '@forge-httpd/storage';
import { type ChangeRejection, evaluateChanges } from '../dag/evaluate-changes.js';
import type { FoldEnv } from '../model/fold-env.js';
import { alice, bob, change, env, eve, oid } from '../testing/fixtures.testing.js';
import { patchFolder } from './fold-patch.js';
import { viewPatch } from './patch-view.js';

// Actions of current heartwood (crates/radicle/src/cob/patch.rs, patch/actions.rs).
const ROOT = oid(0x300);
const BASE = oid(0xb0);
const HEAD = oid(0xc1);
const root = change({
  id: ROOT,
  author: bob.nid,
  timestamp: 100,
  actions: [
    { type: 'revision', description: 'First try', base: BASE, oid: HEAD },
    { type: 'edit', title: 'Add feature', target: 'delegates' },
  ],
});

let n = 0x400;
function next(fields: Omit<Parameters<typeof change>[0], 'id'>) {
  return change({ id: oid(++n), ...fields });
}

function evaluate(changes: ReturnType<typeof change>[], foldEnv: FoldEnv = env()) {
  const rejections: ChangeRejection[] = [];
  const result = evaluateChanges({ rootId: ROOT, changes: [root, ...changes], folder: patchFolder(foldEnv), onReject: (r) => rejections.push(r) });
  return { applied: result?.applied ?? [], patch: result === null ? null : viewPatch(result.state, () => []), rejections };
}

function reviewBy(author: typeof alice, summary?: string) {
  return next({ parents: [ROOT], author: author.nid, timestamp: 110, actions: [{ type: 'review', revision: ROOT, verdict: 'reject', summary }] });
}

describe('patch fold, current actions', () => {
  it('shows the latest summary of a review edited with review.edit.v2 and keeps every edit', () => {
    const review = reviewBy(eve, 'Needs tests');
    const edit = next({
      parents: [review.id],
      author: eve.nid,
      timestamp: 120,
      actions: [{ type: 'review.edit.v2', review: review.id, summary: 'Tests added, thanks', verdict: 'accept', labels: ['good'], embeds: [] }],
    });
    const view = evaluate([review, edit]).patch?.revisions[0]?.reviews[0];
    expect(view).toMatchObject({ verdict: 'accept', summary: 'Tests added, thanks', labels: ['good'] });
    expect(view?.summaryEdits.map((e) => [e.body, e.timestamp])).toEqual([
      ['Needs tests', 110],
      ['Tests added, thanks', 120],
    ]);
  });

  it('keeps the previous summary when a v1 review.edit has none, and replaces the verdict', () => {
    const review = reviewBy(eve, 'Needs tests');
    const edit = next({ parents: [review.id], author: eve.nid, actions: [{ type: 'review.edit', review: review.id, verdict: 'accept' }] });
    expect(evaluate([review, edit]).patch?.revisions[0]?.reviews[0]).toMatchObject({ verdict: 'accept', summary: 'Needs tests' });
  });

  it('shows an empty string as the summary of a review that has none', () => {
    const review = reviewBy(eve);
    expect(evaluate([review]).patch?.revisions[0]?.reviews[0]?.summary).toBe('');
  });

  it.each([
    ['v1 without summary or verdict', { type: 'review.edit' }],
    ['v2 with an empty summary and no verdict', { type: 'review.edit.v2', summary: '' }],
  ])('rejects a review edit %s', (_name, fields) => {
    const review = reviewBy(eve, 'x');
    const edit = next({ parents: [review.id], author: eve.nid, actions: [{ ...fields, review: review.id }] });
    expect(evaluate([review, edit]).applied).toEqual([ROOT, review.id]);
  });

  it('lets only the reviewer edit a review', () => {
    const review = reviewBy(eve, 'mine');
    const hijack = next({ parents: [review.id], author: bob.nid, actions: [{ type: 'review.edit.v2', review: review.id, summary: 'yours' }] });
    expect(evaluate([review, hijack]).patch?.revisions[0]?.reviews[0]?.summary).toBe('mine');
  });

  it('toggles reactions on a review from anyone', () => {
    const review = reviewBy(eve, 'x');
    const react = (author: typeof alice, reaction: string, active: boolean, parent: Oid) =>
      next({ parents: [parent], author: author.nid, actions: [{ type: 'review.react', review: review.id, reaction, active }] });
    const r1 = react(bob, '🎉', true, review.id);
    const r2 = react(alice, '🎉', true, r1.id);
    const r3 = react(bob, '👀', true, r2.id);
    const r4 = react(bob, '🎉', false, r3.id);
    const view = evaluate([review, r1, r2, r3, r4]).patch?.revisions[0]?.reviews[0];
    expect(view?.reactions).toEqual([
      { emoji: '🎉', authors: [alice.nid] },
      { emoji: '👀', authors: [bob.nid] },
    ]);
  });

  it('applies every change after a v2 review edit and a review reaction: revision, comment, merge', () => {
    const review = reviewBy(eve, 'Needs tests');
    const edit = next({ parents: [review.id], author: eve.nid, actions: [{ type: 'review.edit.v2', review: review.id, summary: 'OK', verdict: 'accept' }] });
    const react = next({ parents: [edit.id], author: bob.nid, actions: [{ type: 'review.react', review: review.id, reaction: '🚀', active: true }] });
    const comment = next({ parents: [react.id], author: bob.nid, actions: [{ type: 'revision.comment', revision: ROOT, body: 'Merging' }] });
    const merge = next({ parents: [comment.id], author: alice.nid, actions: [{ type: 'merge', revision: ROOT, commit: HEAD }] });
    const result = evaluate([review, edit, react, comment, merge]);
    expect(result.applied).toEqual([ROOT, review.id, edit.id, react.id, comment.id, merge.id]);
    expect(result.patch?.state).toEqual({ status: 'merged', revision: ROOT, commit: HEAD });
    expect(result.rejections).toEqual([]);
  });

  it('reads a merge target naming a branch and merges against that branch', () => {
    const retarget = next({ parents: [ROOT], author: bob.nid, actions: [{ type: 'edit', title: 'Backport', target: { branch: 'release/1.0' } }] });
    const merge = next({ parents: [retarget.id], author: alice.nid, actions: [{ type: 'merge', revision: ROOT, commit: HEAD }] });
    const branches: string[] = [];
    const onRelease: FoldEnv = { ...env(), isOnBranch: ({ branch }) => (branches.push(branch), branch === 'refs/heads/release/1.0') };
    const result = evaluate([retarget, merge], onRelease);
    expect(result.patch).toMatchObject({ title: 'Backport', target: { branch: 'refs/heads/release/1.0' }, state: { status: 'merged' } });
    expect(branches).toEqual(['refs/heads/release/1.0']);
  });

  it('reports an unknown action type with the number of changes it takes with it', () => {
    const unknown = next({ parents: [ROOT], author: bob.nid, actions: [{ type: 'review.comment.v9', review: ROOT, body: 'from the future' }] });
    const after = next({ parents: [unknown.id], author: bob.nid, actions: [{ type: 'revision.comment', revision: ROOT, body: 'later' }] });
    const result = evaluate([unknown, after]);
    expect(result.applied).toEqual([ROOT]);
    expect(result.rejections).toEqual([
      { change: unknown.id, root: false, reason: 'unknown patch action review.comment.v9', unknownAction: 'review.comment.v9', dropped: 2 },
    ]);
  });
});
