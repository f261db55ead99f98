import type { CobChange, CobObject } from '@forge-httpd/api-types';
import type { LoggedChange } from '@forge-httpd/cob';
import { didFromNid } from '@forge-httpd/identity';
import type { Oid } from '@forge-httpd/storage';

/** A change in wire form (docs/api.md, "Collaborative-object change logs"): actions that are not JSON as base64. */
export function toCobChange(change: LoggedChange): CobChange {
  const did = didFromNid(change.author);
  return {
    id: change.id,
    parents: [...change.parents],
    author: did,
    timestamp: change.timestamp,
    manifest: { typeName: change.manifest.typeName, version: change.manifest.version },
    actions: change.actions.map((action) => ('json' in action ? action.json : action.bytes.toString('base64'))),
    signature: { key: did, sig: Buffer.from(change.signature).toString('base64') },
  };
}

/** A listing item: the count of signed changes and the latest of their timestamps; null when none verifies. */
export function toCobObject(id: Oid, changes: readonly LoggedChange[]): CobObject | null {
  if (changes.length === 0) return null;
  return { id, changes: changes.length, updated: Math.max(...changes.map((change) => change.timestamp)) };
}
