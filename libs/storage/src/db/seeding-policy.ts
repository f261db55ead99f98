/** Scope of an `allow` seeding policy: seed every peer's refs or only followed peers'. */
export type SeedingScope = 'all' | 'followed';

/**
 * A repository seeding policy (docs/node-home.md §8.2, docs/radicle-httpd.md §4.7). Shaped like the API's
 * policy object so callers can pass it through: the scope exists only for `allow`.
 */
export type SeedingPolicy = { policy: 'allow'; scope: SeedingScope } | { policy: 'block' };

/** The policy heartwood uses when config.json has none: block. */
export const DEFAULT_SEEDING_POLICY: SeedingPolicy = { policy: 'block' };

/**
 * Reads a `seeding` table row (§8.2). Unknown policy text is treated as block and unknown scope
 * text as `followed` (the column default), so a row from a newer node never breaks a listing.
 */
export function seedingPolicyFromRow(row: { scope: string | null; policy: string | null }): SeedingPolicy {
  // A NULL policy column cannot come from heartwood's writers; the column default is allow.
  if ((row.policy ?? 'allow') !== 'allow') return { policy: 'block' };
  return { policy: 'allow', scope: row.scope === 'all' ? 'all' : 'followed' };
}
