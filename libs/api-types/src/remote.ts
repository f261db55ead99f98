/**
 * Wire types of remotes (api.md "Remote info", operations 15–16; behaviour.md B §4.6).
 */

/** One peer's signed refs. `alias` is omitted when unknown. */
export interface Remote {
  id: string;
  alias?: string;
  /** Branch name (after `refs/heads/`) → commit id, sorted by name. */
  heads: Record<string, string>;
  /** `refs/heads/*` and `refs/tags/*` → commit id (tags peeled), sorted by name. */
  refs: Record<string, string>;
  delegate: boolean;
}
