import { RejectedError } from '@forge-httpd/identity';
import type { Nid } from '@forge-httpd/identity';
import type { Oid } from '@forge-httpd/storage';
import { sameSet } from '../model/compare.js';
import { type IdentityDoc, isDelegate } from '../model/identity-doc.js';
import type { IssueAction } from './issue-action.js';
import type { IssueState } from './issue-state.js';

/** Outcome of an authorisation check: `unknown` means the target was redacted (skip). */
export type Authorization = 'allow' | 'deny' | 'unknown';

/**
 * Decides whether `actor` may apply an issue action (docs/node-home.md §7.1, radicle
 * `Issue::authorization`): delegates may do anything; the issue author may edit and change the
 * lifecycle; anyone may comment and react; comment authors edit and redact their own comments;
 * others may only re-assert the current assignees or labels.
 * @throws RejectedError when the action names a comment that never existed
 */
export function authorizeIssueAction(issue: IssueState, request: { action: IssueAction; actor: Nid; doc: IdentityDoc }): Authorization {
  const { action, actor, doc } = request;
  if (isDelegate(doc, actor)) return 'allow';
  switch (action.type) {
    case 'assign':
      return sameSet(action.assignees, issue.assignees) ? 'allow' : 'deny';
    case 'label':
      return sameSet(action.labels, issue.labels) ? 'allow' : 'deny';
    case 'edit':
    case 'lifecycle':
      return actor === issue.author ? 'allow' : 'deny';
    case 'comment':
    case 'comment.react':
      return 'allow';
    case 'comment.edit':
    case 'comment.redact':
      return commentAuthorization(issue, { id: action.id, actor });
  }
}

function commentAuthorization(issue: IssueState, { id, actor }: { id: Oid; actor: Nid }): Authorization {
  const comment = issue.thread.comments.get(id);
  if (comment === undefined) throw new RejectedError(`comment ${id} missing`);
  if (comment === null) return 'unknown';
  return comment.author === actor ? 'allow' : 'deny';
}
