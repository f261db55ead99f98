/**
 * The issue reducer (docs/node-home.md §7.1; radicle `Issue::from_root` / `Issue::op`).
 */
import { RejectedError } from '@forge-httpd/identity';
import type { Nid } from '@forge-httpd/identity';
import type { Change } from '../change.js';
import type { CobFolder } from '../dag/evaluate-changes.js';
import type { FoldEnv } from '../model/fold-env.js';
import type { IdentityDoc } from '../model/identity-doc.js';
import { addComment, editComment, newThread, reactToComment, redactComment } from '../model/thread.js';
import { authorizeIssueAction } from './authorize-issue.js';
import { type IssueAction, parseIssueAction } from './issue-action.js';
import type { IssueState } from './issue-state.js';

/**
 * Builds the issue fold for one evaluation.
 * @param env - repository facts (identity documents at resources)
 * @returns init/apply functions for {@link evaluateChanges}
 */
export function issueFolder(env: FoldEnv): CobFolder<IssueState> {
  return {
    init: (root) => initIssue(root, env),
    apply: (issue, change) => applyIssueChange(issue, change, env),
  };
}

function initIssue(root: Change, env: FoldEnv): IssueState {
  const doc = env.docAt(root.resource);
  const [first, ...rest] = root.actions.map(parseIssueAction);
  if (first?.type !== 'comment' || first.replyTo !== null) {
    throw new RejectedError('the first issue action must be a root comment');
  }
  const thread = newThread<never>();
  // The root comment bypasses the thread's empty-body check (radicle builds it directly).
  thread.timeline.push(root.id);
  thread.comments.set(root.id, {
    author: root.author,
    edits: [{ author: root.author, timestamp: root.timestamp, body: first.body, embeds: first.embeds }],
    reactions: new Map(),
    replyTo: null,
    location: null,
    resolved: false,
  });
  const issue: IssueState = {
    id: root.id,
    author: root.author,
    title: '',
    lifecycle: { status: 'open' },
    assignees: new Set(),
    labels: new Set(),
    thread,
  };
  // In the root change a denial invalidates the whole issue.
  for (const action of rest) authorizedApply(issue, { action, change: root, doc });
  return issue;
}

function applyIssueChange(issue: IssueState, change: Change, env: FoldEnv): void {
  const doc = env.docAt(change.resource);
  const actions = change.actions.map(parseIssueAction);
  for (const action of actions) authorizedApply(issue, { action, change, doc });
}

function authorizedApply(issue: IssueState, op: { action: IssueAction; change: Change; doc: IdentityDoc }): void {
  const { action, change, doc } = op;
  const outcome = authorizeIssueAction(issue, { action, actor: change.author, doc });
  if (outcome === 'deny') throw new RejectedError(`${change.author} may not ${action.type}`);
  if (outcome === 'allow') applyIssueAction(issue, { action, change });
}

/** Applies one authorised issue action (a switch whose cases are small functions). */
function applyIssueAction(issue: IssueState, { action, change }: { action: IssueAction; change: Change }): void {
  const author: Nid = change.author;
  switch (action.type) {
    case 'assign':
      issue.assignees = new Set(action.assignees);
      return;
    case 'edit':
      return setTitle(issue, action.title);
    case 'lifecycle':
      issue.lifecycle = action.state;
      return;
    case 'label':
      issue.labels = new Set(action.labels);
      return;
    case 'comment':
      return addComment(issue.thread, {
        id: change.id,
        author,
        timestamp: change.timestamp,
        body: action.body,
        replyTo: action.replyTo,
        location: null,
        embeds: action.embeds,
      });
    case 'comment.edit':
      return editComment(issue.thread, { id: change.id, comment: action.id, author, timestamp: change.timestamp, body: action.body, embeds: action.embeds });
    case 'comment.redact':
      if (action.id === issue.id) throw new RejectedError('the root comment cannot be redacted');
      return redactComment(issue.thread, { id: change.id, comment: action.id });
    case 'comment.react':
      return reactToComment(issue.thread, { id: change.id, author, comment: action.id, emoji: action.reaction, active: action.active });
  }
}

function setTitle(issue: IssueState, title: string): void {
  if (title.includes('\n') || title.includes('\r')) throw new RejectedError('issue title must be one line');
  issue.title = title;
}
