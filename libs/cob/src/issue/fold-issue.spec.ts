import { didFromNid } from '@forge-httpd/identity';
import { evaluateChanges } from '../dag/evaluate-changes.js';
import { alice, bob, change, doc, env, eve, oid } from '../testing/fixtures.testing.js';
import { issueFolder } from './fold-issue.js';
import { viewIssue } from './issue-view.js';

const ROOT = oid(0x100);
const open = change({
  id: ROOT,
  author: bob.nid,
  timestamp: 100,
  actions: [
    { type: 'comment', body: 'It breaks' },
    { type: 'edit', title: 'Crash on start' },
  ],
});

function evaluate(changes: ReturnType<typeof change>[], foldEnv = env()) {
  const result = evaluateChanges({ rootId: ROOT, changes: [open, ...changes], folder: issueFolder(foldEnv) });
  return result === null ? null : { ...result, issue: viewIssue(result.state) };
}

describe('issue fold', () => {
  it('creates an issue from a root comment and a title', () => {
    const issue = evaluate([])?.issue;
    expect(issue).toMatchObject({ id: ROOT, author: bob.nid, title: 'Crash on start', state: { status: 'open' }, timestamp: 100 });
    expect(issue?.discussion.map((c) => [c.id, c.body, c.replyTo])).toEqual([[ROOT, 'It breaks', null]]);
  });

  it('applies comments, replies, edits, reactions, redactions, labels, assignees and lifecycle', () => {
    const c1 = oid(0x201);
    const changes = [
      change({ id: c1, parents: [ROOT], author: eve.nid, timestamp: 101, actions: [{ type: 'comment', body: 'Me too', replyTo: ROOT }] }),
      change({ id: oid(0x202), parents: [c1], author: bob.nid, timestamp: 102, actions: [{ type: 'comment', body: 'Which version?', replyTo: c1 }] }),
      change({
        id: oid(0x203),
        parents: [oid(0x202)],
        author: eve.nid,
        timestamp: 103,
        actions: [{ type: 'comment.edit', id: c1, body: 'Me too, on 1.2', embeds: [{ name: 'a.png', content: `git:${oid(7)}` }] }],
      }),
      change({
        id: oid(0x204),
        parents: [oid(0x203)],
        author: alice.nid,
        timestamp: 104,
        actions: [
          { type: 'comment.react', id: ROOT, reaction: '👍', active: true },
          { type: 'label', labels: ['bug', 'crash'] },
          { type: 'assign', assignees: [didFromNid(bob.nid)] },
        ],
      }),
      change({
        id: oid(0x205),
        parents: [oid(0x204)],
        author: eve.nid,
        timestamp: 105,
        actions: [
          { type: 'comment.react', id: ROOT, reaction: '👍', active: true },
          { type: 'comment.react', id: ROOT, reaction: '🎉', active: true },
        ],
      }),
      change({
        id: oid(0x206),
        parents: [oid(0x205)],
        author: bob.nid,
        timestamp: 106,
        actions: [
          { type: 'comment.redact', id: oid(0x202) },
          { type: 'lifecycle', state: { status: 'closed', reason: 'solved' } },
        ],
      }),
    ];
    const { issue } = evaluate(changes) ?? {};
    expect(issue?.state).toEqual({ status: 'closed', reason: 'solved' });
    expect(issue?.labels).toEqual(['bug', 'crash']);
    expect(issue?.assignees).toEqual([didFromNid(bob.nid)]);
    expect(issue?.discussion.map((c) => c.id)).toEqual([ROOT, c1]);
    const [root, edited] = issue?.discussion ?? [];
    expect(edited?.body).toBe('Me too, on 1.2');
    expect(edited?.edits.map((e) => e.body)).toEqual(['Me too', 'Me too, on 1.2']);
    expect(edited?.embeds).toEqual([{ name: 'a.png', content: `git:${oid(7)}` }]);
    expect(edited?.timestamp).toBe(101);
    expect(root?.reactions.map((r) => [r.emoji, r.authors.length])).toEqual([
      ['🎉', 1],
      ['👍', 2],
    ]);
  });

  it('prunes an unauthorised change and its descendants without touching concurrent ones', () => {
    const changes = [
      change({ id: oid(0x301), parents: [ROOT], author: eve.nid, actions: [{ type: 'label', labels: ['wontfix'] }] }),
      change({ id: oid(0x302), parents: [oid(0x301)], author: alice.nid, actions: [{ type: 'comment', body: 'after the bad one' }] }),
      change({ id: oid(0x303), parents: [ROOT], author: eve.nid, actions: [{ type: 'comment', body: 'fine' }] }),
    ];
    const result = evaluate(changes);
    expect(result?.issue.labels).toEqual([]);
    expect(result?.issue.discussion.map((c) => c.body)).toEqual(['It breaks', 'fine']);
    expect(result?.tips).toEqual([oid(0x303)]);
  });

  it('keeps the effects of earlier actions of a change that fails later', () => {
    const bad = change({
      id: oid(0x401),
      parents: [ROOT],
      author: eve.nid,
      actions: [
        { type: 'comment.react', id: ROOT, reaction: '🚀', active: true },
        { type: 'assign', assignees: [didFromNid(eve.nid)] },
      ],
    });
    const issue = evaluate([bad])?.issue;
    expect(issue?.assignees).toEqual([]);
    expect(issue?.discussion[0]?.reactions).toEqual([{ emoji: '🚀', authors: [eve.nid] }]);
  });

  it('lets non-delegates re-assert the current labels and the author edit their own issue', () => {
    const changes = [
      change({ id: oid(0x501), parents: [ROOT], author: eve.nid, actions: [{ type: 'label', labels: [] }] }),
      change({
        id: oid(0x502),
        parents: [oid(0x501)],
        author: bob.nid,
        actions: [
          { type: 'edit', title: 'Renamed' },
          { type: 'lifecycle', state: { status: 'closed', reason: 'other' } },
        ],
      }),
      change({ id: oid(0x503), parents: [oid(0x502)], author: eve.nid, actions: [{ type: 'lifecycle', state: { status: 'open' } }] }),
    ];
    const issue = evaluate(changes)?.issue;
    expect(issue?.title).toBe('Renamed');
    expect(issue?.state).toEqual({ status: 'closed', reason: 'other' });
  });

  it('only lets a comment author edit or redact it, and ignores edits of redacted comments', () => {
    const c = oid(0x601);
    const changes = [
      change({ id: c, parents: [ROOT], author: eve.nid, actions: [{ type: 'comment', body: 'mine', replyTo: ROOT }] }),
      change({ id: oid(0x602), parents: [c], author: bob.nid, actions: [{ type: 'comment.edit', id: c, body: 'hijack', embeds: [] }] }),
      change({ id: oid(0x603), parents: [c], author: eve.nid, timestamp: 1_800_000_000, actions: [{ type: 'comment.redact', id: c }] }),
      change({
        id: oid(0x604),
        parents: [oid(0x603)],
        author: eve.nid,
        timestamp: 1_800_000_001,
        actions: [{ type: 'comment.edit', id: c, body: 'too late', embeds: [] }],
      }),
    ];
    const result = evaluate(changes);
    expect(result?.issue.discussion.map((x) => x.body)).toEqual(['It breaks']);
    expect(result?.applied).toEqual([ROOT, c, oid(0x603), oid(0x604)]);
  });

  it.each([
    ['a bad signature', { signatureValid: false, actions: [{ type: 'comment', body: 'x' }] }],
    ['an unknown action type', { actions: [{ type: 'comment.pin', id: ROOT }] }],
    ['an empty comment', { actions: [{ type: 'comment', body: '' }] }],
    ['a reply to an unknown comment', { actions: [{ type: 'comment', body: 'x', replyTo: oid(0xdead) }] }],
    ['an invalid reaction', { actions: [{ type: 'comment.react', id: ROOT, reaction: 'x', active: true }] }],
    ['a label with a space', { actions: [{ type: 'label', labels: ['good first issue'] }] }],
    ['a redaction of the root comment', { actions: [{ type: 'comment.redact', id: ROOT }] }],
    ['a two-line title', { actions: [{ type: 'edit', title: 'a\nb' }] }],
    ['a missing resource', { resource: null, actions: [{ type: 'comment', body: 'x' }] }],
    ['an undecodable action', { actions: [undefined] }],
  ])('drops a change with %s', (_name, fields) => {
    const bad = change({ id: oid(0x701), parents: [ROOT], author: alice.nid, ...fields });
    expect(evaluate([bad])?.applied).toEqual([ROOT]);
  });

  it('rejects the whole issue when its root change is unauthorised', () => {
    const root = change({
      id: ROOT,
      author: eve.nid,
      actions: [
        { type: 'comment', body: 'x' },
        { type: 'edit', title: 't' },
        { type: 'label', labels: ['spam'] },
      ],
    });
    expect(evaluateChanges({ rootId: ROOT, changes: [root], folder: issueFolder(env()) })).toBeNull();
  });

  it('authorises against the document of each change, not the current one', () => {
    const late = change({ id: oid(0x801), parents: [ROOT], author: eve.nid, actions: [{ type: 'label', labels: ['ok'] }] });
    const withEve = env({ doc: doc([alice.nid, eve.nid]) });
    expect(evaluate([late], withEve)?.issue.labels).toEqual(['ok']);
  });
});
