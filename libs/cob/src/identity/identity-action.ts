/**
 * `xyz.radicle.id` actions (docs/node-home.md §4.3). Note the undotted `RevisionEdit` tag.
 */
import { decodeMultibase, RejectedError } from '@forge-httpd/identity';
import type { Oid } from '@forge-httpd/storage';
import { asObject, type JsonObject, readOid, readOptionalOid, readString } from '../model/json-fields.js';

/** One decoded identity action. */
export type IdentityAction =
  | {
      readonly type: 'revision';
      readonly title: string;
      readonly description: string;
      readonly blob: Oid;
      readonly parent: Oid | null;
      readonly signature: Uint8Array;
    }
  | { readonly type: 'RevisionEdit'; readonly revision: Oid; readonly title: string; readonly description: string }
  | { readonly type: 'revision.accept'; readonly revision: Oid; readonly signature: Uint8Array }
  | { readonly type: 'revision.reject' | 'revision.redact'; readonly revision: Oid };

/**
 * Decodes one identity action blob.
 * @throws RejectedError for unknown types and invalid fields
 */
export function parseIdentityAction(value: unknown): IdentityAction {
  const o = asObject(value, 'identity action');
  const type = o['type'];
  switch (type) {
    case 'revision':
      return {
        type,
        title: readString(o, 'title'),
        description: description(o),
        blob: readOid(o, 'blob'),
        parent: readOptionalOid(o, 'parent'),
        signature: signature(o),
      };
    case 'RevisionEdit':
      return { type, revision: readOid(o, 'revision'), title: readString(o, 'title'), description: description(o) };
    case 'revision.accept':
      return { type, revision: readOid(o, 'revision'), signature: signature(o) };
    case 'revision.reject':
    case 'revision.redact':
      return { type, revision: readOid(o, 'revision') };
    default:
      throw new RejectedError(`unknown identity action ${String(type)}`, { unknownAction: String(type) });
  }
}

function description(o: JsonObject): string {
  return o['description'] === undefined ? '' : readString(o, 'description');
}

function signature(o: JsonObject): Uint8Array {
  try {
    const bytes = decodeMultibase(readString(o, 'signature'));
    if (bytes.length === 64) return bytes;
  } catch {
    // fall through: reported as an invalid signature below
  }
  throw new RejectedError('invalid signature encoding');
}
