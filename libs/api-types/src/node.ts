/**
 * Wire types of the node-scoped operations (api.md 1–5; behaviour.md B §5.1–5.5, §4.7).
 * Keys are listed in the order the server writes them.
 */

/** `GET /node` (api.md "Node info"). Optional keys are omitted when not configured. */
export interface NodeInfo {
  id: string;
  agent: string | null;
  /** The control socket's `config` reply, unchanged; null when unavailable. */
  config: Record<string, unknown> | null;
  state: NodeState;
  avatarUrl?: string;
  bannerUrl?: string;
  description?: string;
}

/** Liveness of the local node as seen over its control socket. */
export type NodeState = 'running' | 'stopped';

/** A seeding policy: `{policy: "allow", scope}` or `{policy: "block"}` (B §4.7). */
export type SeedingPolicy =
  | { policy: 'allow'; scope: SeedingScope }
  | { policy: 'block' };

/** Scope of an `allow` seeding policy. */
export type SeedingScope = 'all' | 'followed';

/** Item of `GET /node/policies/repos`. */
export interface RepoPolicy {
  rid: string;
  policy: SeedingPolicy;
}

/** `GET /nodes/{nid}` (api.md "Node identity"); `alias` is null when unknown. */
export interface NodeIdentity {
  alias: string | null;
  did: string;
  ssh: {
    /** `ssh-ed25519 <base64>` */
    full: string;
    /** `SHA256:<unpadded base64>` */
    hash: string;
  };
}

/** `GET /nodes/{nid}/inventory`: RID strings, ascending. */
export type NodeInventory = string[];
