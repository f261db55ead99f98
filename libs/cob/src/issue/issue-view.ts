import { compareUtf8 } from '@forge-httpd/identity';
import type { Did, Nid } from '@forge-httpd/identity';
import type { Oid } from '@forge-httpd/storage';
import { type CommentView, viewThread } from '../model/comment-view.js';
import { compareNids } from '../model/compare.js';
import type { IssueLifecycle } from './issue-action.js';
import type { IssueState } from './issue-state.js';

/** An evaluated issue, ready to be mapped to the wire format. */
export interface Issue {
  readonly id: Oid;
  readonly author: Nid;
  readonly title: string;
  readonly state: IssueLifecycle;
  /** Sorted by key, like the node's `BTreeSet<Did>`. */
  readonly assignees: readonly Did[];
  /** `discussion[0]` is the issue body; its id is the issue id. */
  readonly discussion: readonly CommentView<never>[];
  /** Sorted like the node's `BTreeSet<Label>`. */
  readonly labels: readonly string[];
  /** Creation time (the root comment's), seconds. */
  readonly timestamp: number;
}

/**
 * Snapshots a folded issue into an immutable view.
 * @param state - the folded state
 * @returns the view
 */
export function viewIssue(state: IssueState): Issue {
  const discussion = viewThread(state.thread);
  const root = discussion[0];
  return {
    id: state.id,
    author: root?.author ?? state.author,
    title: state.title,
    state: state.lifecycle,
    assignees: [...state.assignees].sort((a, b) => compareNids(a.slice(8), b.slice(8))),
    discussion,
    labels: [...state.labels].sort(compareUtf8),
    timestamp: root?.timestamp ?? 0,
  };
}
