/**
 * Remotes (docs/api.md "Remote info", operations 15–16; docs/radicle-httpd.md §4.6).
 */
import * as v from 'valibot';
import { nidSchema, oidSchema } from './scalars.js';

/** One peer's signed refs. `alias` is omitted when unknown. */
export const remoteSchema = v.object({
  id: nidSchema,
  alias: v.optional(v.string()),
  /** Branch name (after `refs/heads/`) → commit id, sorted by name. */
  heads: v.record(v.string(), oidSchema),
  /** `refs/heads/*` and `refs/tags/*` → commit id (tags peeled), sorted by name. */
  refs: v.record(v.string(), oidSchema),
  delegate: v.boolean(),
});
export type Remote = v.InferOutput<typeof remoteSchema>;
