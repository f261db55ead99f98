import type { Flavour, Oid } from '@forge-httpd/storage';
import type { BuiltRepository } from './built-repository.js';
import type { FixedClock } from './clock.js';
import type { Peer } from './node-home.js';

/** What the demo hands to the issue/patch generator. */
export interface DemoCollaborationContext {
  /** The node home directory (`cobs/cache.db` lives under it). */
  readonly home: string;
  readonly flavour: Flavour;
  /** The node owning the home. */
  readonly local: Peer;
  /** Every peer the builder can sign as (key pair and alias), by alias; includes `local`. */
  readonly peers: ReadonlyMap<string, Peer>;
  /** The demo repositories by name: rid, gitDir, defaultBranch, head, identityHead, document… */
  readonly repos: ReadonlyMap<string, BuiltRepository>;
  /** Fixed clock: take every commit time from `clock.tick()` so ids stay deterministic. */
  readonly clock: FixedClock;
  /** Re-signs a peer's refs in a repository after its COB refs moved (new sigrefs commit). */
  resignRefs(repo: BuiltRepository, peer: Peer): Promise<Oid>;
}

/**
 * Adds issues and patches to the demo home.
 *
 * TODO(cob helper): owned by the cob helper, who fills it with `@forge-httpd/cob`'s write side
 * (createIssue, commentIssue, createPatch, …): a few issues with comments, labels and
 * assignees, and patches with revisions and reviews from different peers, then re-signs each
 * author's refs and upserts `cobs/cache.db`. Until then the demo has no COBs.
 * @param context - see {@link DemoCollaborationContext}
 */
export async function addDemoCollaboration(context: DemoCollaborationContext): Promise<void> {
  void context;
}
