import type { Issue as WireIssue, IssueState } from '@forge-httpd/api-types';
import type { Issue } from '@forge-httpd/cob';
import { nidFromDid } from '@forge-httpd/identity';
import type { AliasLookup } from '../cobs/cob-store.service.js';
import { toAuthor, toIssueComment } from '../cobs/comment.mapper.js';

/**
 * Maps an evaluated issue to `{id, author, title, state, assignees, discussion, labels}`
 * (docs/radicle-httpd.md §6.4).
 */
export function toIssue(issue: Issue, aliasOf: AliasLookup): WireIssue {
  return {
    id: issue.id,
    author: toAuthor(issue.author, aliasOf),
    title: issue.title,
    state: toIssueState(issue.state),
    assignees: issue.assignees.map((did) => toAuthor(nidFromDid(did), aliasOf)),
    discussion: issue.discussion.map((comment) => toIssueComment(comment, aliasOf)),
    labels: [...issue.labels],
  };
}

function toIssueState(state: Issue['state']): IssueState {
  return state.status === 'open' ? { status: 'open' } : { status: 'closed', reason: state.reason };
}
