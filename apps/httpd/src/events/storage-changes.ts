import type { Rid } from '@forge-httpd/identity';
import type { Oid, RefEntry } from '@forge-httpd/storage';

/** One change seen in storage, as the event streams send it (docs/api.md "Live updates"). */
export type StorageEvent =
  | { readonly type: 'refs'; readonly rid: Rid; readonly refs: Readonly<Record<string, Oid | null>> }
  | { readonly type: 'issue' | 'patch'; readonly rid: Rid; readonly id: Oid }
  | { readonly type: 'repo'; readonly rid: Rid; readonly public: boolean };

/** What the watcher keeps of a public repository's refs between two looks. */
export interface RefsPicture {
  /** Refs outside `refs/namespaces/` (the canonical branches, tags, `refs/rad/id`): name → oid. */
  readonly topLevel: ReadonlyMap<string, Oid>;
  /** `issue/<id>` or `patch/<id>` → the tips of that object over every namespace, as one key. */
  readonly cobs: ReadonlyMap<string, string>;
}

const NAMESPACES = 'refs/namespaces/';
const OID = /^[0-9a-f]{40}$/;

/**
 * The picture of a repository's refs: top-level refs by name, and each issue and patch by the
 * set of its tips in every peer's namespace (`refs/namespaces/<nid>/refs/cobs/<type>/<id>`,
 * docs/node-home.md), so a change by any peer changes the object's key.
 * @param refs - every ref under `refs/`
 * @param types - the COB type names of issues and patches of the served flavour
 */
export function pictureRefs(refs: readonly RefEntry[], types: { readonly issue: string; readonly patch: string }): RefsPicture {
  const topLevel = new Map<string, Oid>();
  const tips = new Map<string, string[]>();
  const kinds = new Map([
    [types.issue, 'issue'],
    [types.patch, 'patch'],
  ]);
  for (const { name, oid } of refs) {
    if (!name.startsWith(NAMESPACES)) {
      topLevel.set(name, oid);
      continue;
    }
    // <nid>/refs/cobs/<type>/<id>
    const parts = name.slice(NAMESPACES.length).split('/');
    if (parts.length !== 5 || parts[1] !== 'refs' || parts[2] !== 'cobs') continue;
    const kind = kinds.get(parts[3] as string);
    const id = parts[4] as string;
    if (kind === undefined || !OID.test(id)) continue;
    const key = `${kind}/${id}`;
    const list = tips.get(key) ?? [];
    list.push(`${parts[0] as string}:${oid}`);
    tips.set(key, list);
  }
  const cobs = new Map<string, string>();
  for (const [key, list] of tips) cobs.set(key, list.sort().join(','));
  return { topLevel, cobs };
}

/**
 * The events between two pictures of one repository: one `refs` event naming every top-level
 * ref that moved, appeared (its oid) or went away (null), then one `issue` or `patch` event per
 * object created, changed or removed, by id.
 */
export function diffPictures(rid: Rid, before: RefsPicture, after: RefsPicture): StorageEvent[] {
  const events: StorageEvent[] = [];
  const refs: Record<string, Oid | null> = {};
  let moved = false;
  for (const [name, oid] of after.topLevel) {
    if (before.topLevel.get(name) !== oid) {
      refs[name] = oid;
      moved = true;
    }
  }
  for (const name of before.topLevel.keys()) {
    if (!after.topLevel.has(name)) {
      refs[name] = null;
      moved = true;
    }
  }
  if (moved) events.push({ type: 'refs', rid, refs: sortKeys(refs) });
  const keys = new Set([...before.cobs.keys(), ...after.cobs.keys()]);
  for (const key of [...keys].sort()) {
    if (before.cobs.get(key) === after.cobs.get(key)) continue;
    const [kind, id] = key.split('/') as ['issue' | 'patch', Oid];
    events.push({ type: kind, rid, id });
  }
  return events;
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
