/**
 * One `for-each-ref` listing of every namespace, indexed for COB work: the tips of each
 * object per type (docs/node-home.md §6.5 step 1) and a name → oid map for the other refs a
 * fold consults (merge branches, signed refs).
 */
import type { GitRepository, Oid, RefEntry } from '@forge-httpd/storage';
import { compareOids } from '../dag/change-graph.js';

/** The refs of a repository at one moment. */
export interface CobRefIndex {
  /** Type name → object id → tips (ascending, deduplicated). */
  readonly objects: ReadonlyMap<string, ReadonlyMap<Oid, readonly Oid[]>>;
  /** Every listed ref. */
  readonly refs: ReadonlyMap<string, Oid>;
}

const COB_REF = /^refs\/namespaces\/[^/]+\/refs\/cobs\/([^/]+)\/([0-9a-f]{40})$/;

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

/**
 * Indexes one listing of {@link COB_REF_PREFIX}.
 * @param entries - the listed refs
 * @returns the index
 */
export function indexCobRefs(entries: readonly RefEntry[]): CobRefIndex {
  const objects = new Map<string, Map<Oid, Oid[]>>();
  const refs = new Map<string, Oid>();
  for (const { name, oid } of entries) {
    refs.set(name, oid);
    const match = COB_REF.exec(name);
    if (match === null) continue;
    const [, type, id] = match as unknown as [string, string, Oid];
    const byId = objects.get(type) ?? new Map<Oid, Oid[]>();
    objects.set(type, byId);
    const tips = byId.get(id) ?? [];
    if (!tips.includes(oid)) tips.push(oid);
    byId.set(id, tips);
  }
  for (const byId of objects.values()) for (const tips of byId.values()) tips.sort(compareOids);
  return { objects, refs };
}
