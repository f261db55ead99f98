/**
 * `xyz.radworks.job` actions (radicle-job 0.6): serde's default external tagging, e.g.
 * `{"Request":{"oid":…}}`, `{"Run":{"uuid":…,"log":…}}`,
 * `{"Finished":{"uuid":…,"reason":"Succeeded"|"Failed"}}`. The run's node is the op author.
 */
import { RejectedError } from '@forge-httpd/identity';
import type { Oid } from '@forge-httpd/storage';
import { asObject, readOid, readString } from '../model/json-fields.js';

/** One decoded job action. */
export type JobAction =
  | { readonly type: 'Request'; readonly oid: Oid }
  | { readonly type: 'Run'; readonly uuid: string; readonly log: string }
  | { readonly type: 'Finished'; readonly uuid: string; readonly reason: 'Succeeded' | 'Failed' };

const UUID = /^(?:urn:uuid:)?\{?([0-9a-fA-F]{8})-?([0-9a-fA-F]{4})-?([0-9a-fA-F]{4})-?([0-9a-fA-F]{4})-?([0-9a-fA-F]{12})\}?$/;

/**
 * Decodes one job action blob.
 * @throws RejectedError for unknown variants and invalid fields
 */
export function parseJobAction(value: unknown): JobAction {
  const outer = asObject(value, 'job action');
  const keys = Object.keys(outer);
  const [variant] = keys;
  if (keys.length !== 1 || variant === undefined) throw new RejectedError('job action must have one variant');
  const body = asObject(outer[variant], 'job action body');
  switch (variant) {
    case 'Request':
      return { type: variant, oid: readOid(body, 'oid') };
    case 'Run':
      return { type: variant, uuid: toUuid(body['uuid']), log: toUrl(readString(body, 'log')) };
    case 'Finished': {
      const reason = body['reason'];
      if (reason !== 'Succeeded' && reason !== 'Failed') throw new RejectedError('invalid job reason');
      return { type: variant, uuid: toUuid(body['uuid']), reason };
    }
    default:
      throw new RejectedError(`unknown job action ${variant}`, { unknownAction: variant });
  }
}

/** Normalises a UUID to its hyphenated lower-case form (the uuid crate accepts several forms). */
function toUuid(value: unknown): string {
  const match = typeof value === 'string' ? UUID.exec(value) : null;
  if (match === null) throw new RejectedError('invalid uuid');
  return match.slice(1, 6).join('-').toLowerCase();
}

/** Normalises a URL like the url crate (WHATWG); relative or malformed URLs are rejected. */
function toUrl(text: string): string {
  try {
    return new URL(text).href;
  } catch {
    throw new RejectedError('invalid log url');
  }
}
