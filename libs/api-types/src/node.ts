/**
 * Node-scoped operations (docs/api.md 1–5; docs/radicle-httpd.md §5.1–5.5, §4.7). Keys are listed in the
 * order the server writes them.
 */
import * as v from 'valibot';
import { didSchema, ridSchema } from './scalars.js';

/** Liveness of the local node as seen over its control socket. */
export const nodeStateSchema = v.picklist(['running', 'stopped']);
export type NodeState = v.InferOutput<typeof nodeStateSchema>;

/** `GET /node` (docs/api.md "Node info"). Optional keys are omitted when not configured. */
export const nodeInfoSchema = v.object({
  id: v.string(),
  agent: v.nullable(v.string()),
  /** The control socket's `config` reply, unchanged; null when unavailable. */
  config: v.nullable(v.record(v.string(), v.unknown())),
  state: nodeStateSchema,
  avatarUrl: v.optional(v.string()),
  bannerUrl: v.optional(v.string()),
  description: v.optional(v.string()),
});
export type NodeInfo = v.InferOutput<typeof nodeInfoSchema>;

/** Scope of an `allow` seeding policy. */
export const seedingScopeSchema = v.picklist(['all', 'followed']);
export type SeedingScope = v.InferOutput<typeof seedingScopeSchema>;

/** A seeding policy: `{policy: "allow", scope}` or `{policy: "block"}` (docs/radicle-httpd.md §4.7). */
export const seedingPolicySchema = v.union([v.object({ policy: v.literal('allow'), scope: seedingScopeSchema }), v.object({ policy: v.literal('block') })]);
export type SeedingPolicy = v.InferOutput<typeof seedingPolicySchema>;

/** Item of `GET /node/policies/repos`. */
export const repoPolicySchema = v.object({
  rid: ridSchema,
  policy: seedingPolicySchema,
});
export type RepoPolicy = v.InferOutput<typeof repoPolicySchema>;

/** `GET /nodes/{nid}` (docs/api.md "Node identity"); `alias` is null when unknown. */
export const nodeIdentitySchema = v.object({
  alias: v.nullable(v.string()),
  did: didSchema,
  ssh: v.object({
    /** `ssh-ed25519 <base64>` */
    full: v.string(),
    /** `SHA256:<unpadded base64>` */
    hash: v.string(),
  }),
});
export type NodeIdentity = v.InferOutput<typeof nodeIdentitySchema>;

/** `GET /nodes/{nid}/inventory`: RID strings, ascending. */
export const nodeInventorySchema = v.array(ridSchema);
export type NodeInventory = v.InferOutput<typeof nodeInventorySchema>;
