import { type Did, type Nid, nidFromDid, type Rid } from '@forge-httpd/identity';
import { BoundedCache } from '@forge-httpd/bounded-cache';
import type { NodeHome } from '@forge-httpd/storage';

/** What the node's databases say about repositories and peers, as one request sees them. */
export interface NodeFacts {
  /** Whether the effective seeding policy of `rid` is allow (policies.db row, else the default). */
  isSeeding(rid: Rid): boolean;
  /** How many nodes seed `rid` (node.db `routing` rows). */
  seedCount(rid: Rid): number;
  /** The alias shown for a delegate (resolveAlias: the follow alias, else the announced one), or null. */
  alias(did: Did): string | null;
  /** The same for a node id (issue and patch authors, commenters, reviewers). */
  aliasOfNid(nid: Nid): string | null;
}

/**
 * Answers kept per database version, per kind: the authors of a repository's issues and
 * patches are whoever wrote them, so without a bound a repository written by enough keys would
 * grow the memo for as long as the databases stay unchanged.
 */
const MAX_REMEMBERED = 65_536;

function memo<K, V>(): BoundedCache<K, V> {
  return new BoundedCache<K, V>({ maxEntries: MAX_REMEMBERED });
}

/** Answers read from one version of policies.db. */
interface PoliciesFacts {
  readonly stamp: string;
  readonly seeding: BoundedCache<Rid, boolean>;
  /** Keyed by DID or NID (their texts never coincide). */
  readonly follows: BoundedCache<Did | Nid, string | null>;
}

/** Answers read from one version of node.db. */
interface NodeDbFacts {
  readonly stamp: string;
  readonly seeds: BoundedCache<Rid, number>;
  /** Keyed by DID or NID (their texts never coincide). */
  readonly aliases: BoundedCache<Did | Nid, string | null>;
}

/**
 * Seeding verdicts, seed counts and aliases (docs/node-home.md §8) remembered while the
 * database they come from is unchanged: a listing asks for them per candidate and per shown
 * delegate, an issue or patch page per author, commenter and reviewer, a query each (~4 µs,
 * two for an alias), while each database's change counter (SQLite's `data_version`) costs one
 * query per request. A node that writes its databases often only makes this as costly as
 * asking every time.
 */
export class NodeFactsMemo {
  private policies: PoliciesFacts = { stamp: '', seeding: memo(), follows: memo() };
  private node: NodeDbFacts = { stamp: '', seeds: memo(), aliases: memo() };

  constructor(private readonly home: Pick<NodeHome, 'nodeDb' | 'policiesDb' | 'effectiveSeedingPolicy'>) {}

  /**
   * The facts as of now: each database is checked for changes once, here.
   * @throws LockedError when a database is locked
   */
  current(): NodeFacts {
    const policiesStamp = this.home.policiesDb.changeStamp();
    if (policiesStamp !== this.policies.stamp) this.policies = { stamp: policiesStamp, seeding: memo(), follows: memo() };
    const nodeStamp = this.home.nodeDb.changeStamp();
    if (nodeStamp !== this.node.stamp) this.node = { stamp: nodeStamp, seeds: memo(), aliases: memo() };
    // Captured: a later request that finds a change starts new maps, never mixes versions here.
    const { policies, node, home } = this;
    // resolveAlias's rule, each database's answer kept on its own; `nid` is only called on a miss.
    const aliasOf = (key: Did | Nid, nid: () => Nid): string | null =>
      policies.follows.getOrCompute(key, () => home.policiesDb.followAlias(nid())) ?? node.aliases.getOrCompute(key, () => home.nodeDb.alias(nid()));
    return {
      isSeeding: (rid) => policies.seeding.getOrCompute(rid, () => home.effectiveSeedingPolicy(rid).policy === 'allow'),
      seedCount: (rid) => node.seeds.getOrCompute(rid, () => home.nodeDb.seedCount(rid)),
      // Keyed by DID: decoding it to a NID (base58, key checks) costs more than the lookup.
      alias: (did) => aliasOf(did, () => nidFromDid(did)),
      aliasOfNid: (nid) => aliasOf(nid, () => nid),
    };
  }
}
