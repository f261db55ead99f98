/**
 * One `for-each-ref` listing of every namespace, indexed for COB work: the tips of each
 * object per type (docs/node-home.md §6.5 step 1) and a name → oid map for the other refs a
 * fold consults (merge branches, signed refs).
 */
import { compareUtf8 } from '@forge-httpd/identity';
import type { GitRepository, Oid, RefEntry } from '@forge-httpd/storage';
import { compareOids } from '../dag/change-graph.js';
import { LayeredMap } from './layered-map.js';

/** The refs of a repository at one moment. */
export interface CobRefIndex {
  /** Type name → object id → tips (ascending, deduplicated). */
  readonly objects: ReadonlyMap<string, ReadonlyMap<Oid, readonly Oid[]>>;
  /** Every listed ref. */
  readonly refs: ReadonlyMap<string, Oid>;
}

const COB_REF = /^refs\/namespaces\/([^/]+)\/refs\/cobs\/([^/]+)\/([0-9a-f]{40})$/;

/**
 * Lists `refs/namespaces/` once and indexes COB tips.
 * @param git - the repository
 * @returns the index
 */
export async function readCobRefIndex(git: Pick<GitRepository, 'listRefs'>): Promise<CobRefIndex> {
  return indexCobRefs(await git.listRefs(COB_REF_PREFIX));
}

/** The prefix {@link readCobRefIndex} lists. */
export const COB_REF_PREFIX = 'refs/namespaces/';

/** Most changed refs an index is updated by; past it the listing is indexed whole. */
const MAX_UPDATED_REFS = 256;

/** An index built here, with the namespaces its COB refs live in (to gather an object's tips again). */
interface NamespacedIndex extends CobRefIndex {
  readonly namespaces: ReadonlySet<string>;
}

/** The namespaces of an index built here; undefined for one built elsewhere. */
function namespacesOf(index: CobRefIndex): ReadonlySet<string> | undefined {
  return (index as Partial<NamespacedIndex>).namespaces;
}

/** How an index differs from the one it was updated from. */
export interface CobRefChanges {
  /** Every ref added, moved or removed. */
  readonly refs: ReadonlySet<string>;
  /** Type name → the objects among them whose COB refs changed. */
  readonly objects: ReadonlyMap<string, ReadonlySet<Oid>>;
}

/**
 * Indexes one listing of {@link COB_REF_PREFIX}.
 * @param entries - the listed refs, sorted by name (as `listRefs` gives them)
 * @param previous - an earlier listing and its index: when few refs differ, the index is that
 *   one updated (a tracker's 26,000 refs are not indexed again for one new comment)
 * @returns the index
 */
export function indexCobRefs(entries: readonly RefEntry[], previous?: { readonly entries: readonly RefEntry[]; readonly index: CobRefIndex }): CobRefIndex {
  return updateCobRefIndex(entries, previous).index;
}

/**
 * {@link indexCobRefs}, also telling what differs from `previous` when the index was updated
 * from it (null when it was indexed whole), so what was worked out from the earlier index can
 * be updated the same way.
 */
export function updateCobRefIndex(
  entries: readonly RefEntry[],
  previous?: { readonly entries: readonly RefEntry[]; readonly index: CobRefIndex },
): { readonly index: CobRefIndex; readonly changes: CobRefChanges | null } {
  const changed = previous === undefined ? undefined : changedNames(previous.entries, entries);
  const before = previous === undefined ? undefined : namespacesOf(previous.index);
  if (previous !== undefined && changed !== undefined && before !== undefined) return updated(previous.index, before, changed);
  const objects = new Map<string, Map<Oid, Oid[]>>();
  const refs = new Map<string, Oid>();
  const namespaces = new Set<string>();
  for (const { name, oid } of entries) {
    refs.set(name, oid);
    const cob = cobRefParts(name);
    if (cob === null) continue;
    const { namespace, type, id } = cob;
    namespaces.add(namespace);
    const byId = objects.get(type) ?? new Map<Oid, Oid[]>();
    objects.set(type, byId);
    const tips = byId.get(id) ?? [];
    if (!tips.includes(oid)) tips.push(oid);
    byId.set(id, tips);
  }
  for (const byId of objects.values()) for (const tips of byId.values()) tips.sort(compareOids);
  const index: NamespacedIndex = { objects, refs, namespaces };
  return { index, changes: null };
}

/** The namespace, type and object id a COB ref names; null for another ref. */
function cobRefParts(name: string): { namespace: string; type: string; id: Oid } | null {
  const match = COB_REF.exec(name);
  if (match === null) return null;
  const [, namespace, type, id] = match as unknown as [string, string, string, Oid];
  return { namespace, type, id };
}

/** A ref that differs between two listings: its oid now, undefined when it is gone. */
interface ChangedRef {
  readonly name: string;
  readonly oid: Oid | undefined;
}

/**
 * The refs whose oid differs between two listings sorted by name bytes, as `listRefs` gives
 * them (added, removed or moved); undefined when more than {@link MAX_UPDATED_REFS} do.
 */
function changedNames(before: readonly RefEntry[], after: readonly RefEntry[]): ChangedRef[] | undefined {
  const names: ChangedRef[] = [];
  let i = 0;
  let j = 0;
  while (i < before.length || j < after.length) {
    const a = before[i];
    const b = after[j];
    // Listings built over the same packed refs share their unchanged entries.
    if (a !== undefined && a === b) {
      i += 1;
      j += 1;
      continue;
    }
    const order = a === undefined ? 1 : b === undefined ? -1 : compareUtf8(a.name, b.name);
    if (order === 0) {
      if ((a as RefEntry).oid !== (b as RefEntry).oid) names.push(b as RefEntry);
      i += 1;
      j += 1;
    } else if (order < 0) {
      names.push({ name: (a as RefEntry).name, oid: undefined });
      i += 1;
    } else {
      names.push(b as RefEntry);
      j += 1;
    }
    if (names.length > MAX_UPDATED_REFS) return undefined;
  }
  return names;
}

/**
 * `index` with the `changed` refs, layered over its maps, which are shared and never changed (an
 * index in use by a snapshot never changes); each touched object's tips are gathered again from
 * every namespace.
 */
function updated(
  index: CobRefIndex,
  namespaces: ReadonlySet<string>,
  changed: readonly ChangedRef[],
): { readonly index: CobRefIndex; readonly changes: CobRefChanges } {
  // The same refs: the same index, so what was worked out from it (orders, listings) holds.
  if (changed.length === 0) return { index, changes: { refs: new Set(), objects: new Map() } };
  const refs = LayeredMap.with(
    index.refs,
    changed.map(({ name, oid }) => [name, oid] as const),
  );
  const allNamespaces = new Set(namespaces);
  const touched = new Map<string, Set<Oid>>();
  for (const { name } of changed) {
    const cob = cobRefParts(name);
    if (cob === null) continue;
    const { namespace, type, id } = cob;
    allNamespaces.add(namespace);
    const ids = touched.get(type) ?? new Set<Oid>();
    ids.add(id);
    touched.set(type, ids);
  }
  const objects = new Map(index.objects);
  for (const [type, ids] of touched) {
    const tipsById = [...ids].map((id) => {
      const tips: Oid[] = [];
      for (const namespace of allNamespaces) {
        const tip = refs.get(`refs/namespaces/${namespace}/refs/cobs/${type}/${id}`);
        if (tip !== undefined && !tips.includes(tip)) tips.push(tip);
      }
      return [id, tips.length === 0 ? undefined : tips.sort(compareOids)] as const;
    });
    const byId = LayeredMap.with(objects.get(type) ?? new Map<Oid, readonly Oid[]>(), tipsById);
    if (byId.size === 0) objects.delete(type);
    else objects.set(type, byId);
  }
  const next: NamespacedIndex = { objects, refs, namespaces: allNamespaces };
  return { index: next, changes: { refs: new Set(changed.map(({ name }) => name)), objects: touched } };
}
