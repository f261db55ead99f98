import type { Remote } from '@forge-httpd/api-types';
import { compareUtf8 } from '@forge-httpd/identity';

/** A peer's refs after peeling: namespace-relative name → commit id. */
export interface PeeledRemote {
  nid: string;
  alias: string | null;
  refs: readonly (readonly [string, string])[];
  delegate: boolean;
}

/** Branches and tags with at least one name component after the category (qualified names). */
const KEPT = /^refs\/(heads|tags)\/./;

/**
 * A peer → wire Remote (docs/radicle-httpd.md §4.6), keys `id, alias?, heads, refs, delegate`:
 * `refs/heads/*` go to `heads` (without the prefix) and `refs`, `refs/tags/*` to `refs`
 * only; anything else is dropped. Maps are sorted by name bytes.
 * @param remote - the peer, its alias (null: omitted), its peeled refs, delegate flag
 * @returns the wire remote
 */
export function toRemote(remote: PeeledRemote): Remote {
  const byName = ([a]: readonly [string, string], [b]: readonly [string, string]) => compareUtf8(a, b);
  const kept = remote.refs.filter(([name]) => KEPT.test(name)).sort(byName);
  const heads: Record<string, string> = {};
  const refs: Record<string, string> = {};
  for (const [name, oid] of kept) {
    if (name.startsWith('refs/heads/')) heads[name.slice('refs/heads/'.length)] = oid;
    refs[name] = oid;
  }
  return { id: remote.nid, ...(remote.alias === null ? {} : { alias: remote.alias }), heads, refs, delegate: remote.delegate };
}

/**
 * Tells whether a ref of a remote is shown at all (so only those are peeled).
 * @param name - namespace-relative ref name
 * @returns true for `refs/heads/<x>` and `refs/tags/<x>`
 */
export function isShownRemoteRef(name: string): boolean {
  return KEPT.test(name);
}
