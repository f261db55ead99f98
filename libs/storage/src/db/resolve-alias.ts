import type { NodeDatabase } from './node-database.js';
import type { PoliciesDatabase } from './policies-database.js';

/**
 * The alias shown for `nid` (docs/node-home.md §8.1, docs/radicle-httpd.md §1): the non-empty alias of its
 * `following` row in policies.db, else its announced alias in node.db, else null.
 */
export function resolveAlias(home: { nodeDb: NodeDatabase; policiesDb: PoliciesDatabase }, nid: string): string | null {
  return home.policiesDb.followAlias(nid) ?? home.nodeDb.alias(nid);
}
