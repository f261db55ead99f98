import type { Did, Nid } from '@forge-httpd/identity';
import type { Oid } from '@forge-httpd/storage';
import type { Thread } from '../model/thread.js';
import type { IssueLifecycle } from './issue-action.js';

/** The folded state of an issue (docs/node-home.md §7.1), mutated while changes apply. */
export interface IssueState {
  readonly id: Oid;
  /** Author of the root comment. */
  readonly author: Nid;
  title: string;
  lifecycle: IssueLifecycle;
  assignees: Set<Did>;
  labels: Set<string>;
  readonly thread: Thread<never>;
}
