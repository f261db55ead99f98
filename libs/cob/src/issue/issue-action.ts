/**
 * `xyz.radicle.issue` actions (docs/node-home.md §7.1), decoded and validated like the node's
 * serde derive: one bad action rejects the whole change before anything is applied.
 */
import { RejectedError } from '@forge-httpd/identity';
import type { Did } from '@forge-httpd/identity';
import type { Oid } from '@forge-httpd/storage';
import { asObject, type JsonObject, readArray, readBoolean, readDefaultArray, readOid, readOptionalOid, readString } from '../model/json-fields.js';
import { type Embed, toDid, toEmbed, toLabel, toReaction } from '../model/values.js';

/** Issue lifecycle state. */
export type IssueLifecycle = { readonly status: 'open' } | { readonly status: 'closed'; readonly reason: 'other' | 'solved' };

/** One decoded issue action. */
export type IssueAction =
  | { readonly type: 'comment'; readonly body: string; readonly replyTo: Oid | null; readonly embeds: readonly Embed[] }
  | { readonly type: 'edit'; readonly title: string }
  | { readonly type: 'assign'; readonly assignees: ReadonlySet<Did> }
  | { readonly type: 'label'; readonly labels: ReadonlySet<string> }
  | { readonly type: 'lifecycle'; readonly state: IssueLifecycle }
  | { readonly type: 'comment.edit'; readonly id: Oid; readonly body: string; readonly embeds: readonly Embed[] }
  | { readonly type: 'comment.redact'; readonly id: Oid }
  | { readonly type: 'comment.react'; readonly id: Oid; readonly reaction: string; readonly active: boolean };

/**
 * Decodes one issue action blob.
 * @param value - the parsed JSON (undefined when the blob was not JSON)
 * @returns the action
 * @throws RejectedError for unknown types and invalid fields
 */
export function parseIssueAction(value: unknown): IssueAction {
  const object = asObject(value, 'issue action');
  const type = object['type'];
  switch (type) {
    case 'comment':
      return { type, body: readString(object, 'body'), replyTo: readOptionalOid(object, 'replyTo'), embeds: readDefaultArray(object, 'embeds').map(toEmbed) };
    case 'edit':
      return { type, title: readString(object, 'title') };
    case 'assign':
      return { type, assignees: new Set(readArray(object, 'assignees').map(toDid)) };
    case 'label':
      return { type, labels: new Set(readArray(object, 'labels').map(toLabel)) };
    case 'lifecycle':
      return { type, state: parseIssueLifecycle(object['state']) };
    case 'comment.edit':
      return { type, id: readOid(object, 'id'), body: readString(object, 'body'), embeds: readArray(object, 'embeds').map(toEmbed) };
    case 'comment.redact':
      return { type, id: readOid(object, 'id') };
    case 'comment.react':
      return { type, id: readOid(object, 'id'), reaction: toReaction(object['reaction']), active: readBoolean(object, 'active') };
    default:
      throw new RejectedError(`unknown issue action ${String(type)}`, { unknownAction: String(type) });
  }
}

function parseIssueLifecycle(value: unknown): IssueLifecycle {
  const object: JsonObject = asObject(value, 'issue state');
  if (object['status'] === 'open') return { status: 'open' };
  if (object['status'] === 'closed' && (object['reason'] === 'other' || object['reason'] === 'solved')) {
    return { status: 'closed', reason: object['reason'] };
  }
  throw new RejectedError('invalid issue state');
}
