import { type Oid } from '@forge-httpd/storage';
import { updateRefs } from '@forge-httpd/storage/write';
import { delegateNids, namespacedRef, resignRefs, type BuiltRepository } from './built-repository.js';
import { updateCanonicalHead } from './canonical-head.js';
import { writeGeneratedHistory, type GeneratedCommit, type HistoryTip } from './generated-history.js';
import type { HomeContext, Peer } from './node-home.js';

/** A branch in a peer's namespace: at an existing commit, or new commits on a parent tip. */
export interface PeerBranch {
  readonly name: string;
  /** Point the branch at this commit (default: the repository's canonical head). */
  readonly at?: Oid;
  /** Commits to write on top of `parent` (default parent: the canonical head's tip). */
  readonly commits?: readonly GeneratedCommit[];
  readonly parent?: HistoryTip;
}

/**
 * Gives a peer a fork of a repository, like `rad fork`/`rad clone` followed by pushes: its
 * namespace gets the branches, `refs/rad/id` pointing (directly, as after a fetch) at the
 * current identity revision, and its own signed refs.
 * @param context - the home
 * @param repo - the repository
 * @param options - the peer and its branches (default: the default branch at the canonical head)
 * @returns the tip written for each branch, by branch name
 */
export async function forkRepository(
  context: HomeContext,
  repo: BuiltRepository,
  options: { peer: Peer; branches?: readonly PeerBranch[] },
): Promise<Map<string, HistoryTip | Oid>> {
  const nid = options.peer.keyPair.nid;
  await updateRefs(repo.gitDir, [{ name: namespacedRef(nid, 'refs/rad/id'), oid: repo.identityHead }]);
  return setBranches(context, repo, { peer: options.peer, branches: options.branches ?? [{ name: repo.defaultBranch }] });
}

/**
 * Sets branches in a peer's namespace (existing commits or new generated ones) and re-signs its
 * refs. With `canonical`, non-default branches are also written at top level, as a node does
 * for branches that reached quorum under an `xyz.<flavour>.crefs` rule (§3.4). The default
 * branch's canonical head is not recomputed here (see {@link pushCommits}).
 * @returns the tip written for each branch, by branch name
 */
export async function setBranches(
  context: HomeContext,
  repo: BuiltRepository,
  options: { peer: Peer; branches: readonly PeerBranch[]; canonical?: boolean },
): Promise<Map<string, HistoryTip | Oid>> {
  const nid = options.peer.keyPair.nid;
  const tips = new Map<string, HistoryTip | Oid>();
  for (const branch of options.branches) {
    const tip = await writePeerBranch(repo, { nid, branch });
    tips.set(branch.name, tip);
    if (options.canonical === true && branch.name !== repo.defaultBranch) {
      await updateRefs(repo.gitDir, [{ name: `refs/heads/${branch.name}`, oid: typeof tip === 'string' ? tip : tip.oid }]);
    }
  }
  await resignRefs(context, repo, options.peer);
  return tips;
}

/**
 * A peer pushes new commits to one of its branches (docs/node-home.md §10.2 "after pushes by a
 * delegate"): the namespace branch moves, refs are re-signed, and when a delegate moved the
 * default branch the canonical head is recomputed. Non-default branches can be published as
 * canonical top-level refs (for `xyz.<flavour>.crefs` rules, §3.4).
 * @returns the new branch tip
 */
export async function pushCommits(
  context: HomeContext,
  repo: BuiltRepository,
  options: { peer: Peer; branch: string; commits: readonly GeneratedCommit[]; parent?: HistoryTip; canonical?: boolean },
): Promise<HistoryTip> {
  const nid = options.peer.keyPair.nid;
  const tip = await writePeerBranch(repo, { nid, branch: { name: options.branch, commits: options.commits, parent: options.parent } });
  if (typeof tip === 'string') throw new Error('pushCommits: no commits given');
  if (options.canonical === true && options.branch !== repo.defaultBranch) {
    await updateRefs(repo.gitDir, [{ name: `refs/heads/${options.branch}`, oid: tip.oid }]);
  }
  await resignRefs(context, repo, options.peer);
  if (options.branch === repo.defaultBranch && delegateNids(repo).includes(nid)) {
    const head = await updateCanonicalHead({
      gitDir: repo.gitDir,
      delegates: delegateNids(repo),
      threshold: repo.document.threshold,
      branch: repo.defaultBranch,
    });
    if (head === tip.oid) repo.headTip = tip;
    if (head !== null) repo.head = head;
  }
  return tip;
}

async function writePeerBranch(repo: BuiltRepository, input: { nid: string; branch: PeerBranch }): Promise<HistoryTip | Oid> {
  const ref = namespacedRef(input.nid, `refs/heads/${input.branch.name}`);
  const { commits, at } = input.branch;
  if (commits === undefined || commits.length === 0) {
    const target = at ?? repo.head;
    await updateRefs(repo.gitDir, [{ name: ref, oid: target }]);
    return target;
  }
  const parent = input.branch.parent ?? repo.headTip;
  if (parent === null) throw new Error('peer branch: new commits need a parent tip with files (generated history)');
  const written = await writeGeneratedHistory({ gitDir: repo.gitDir, parent, commits });
  await updateRefs(repo.gitDir, [{ name: ref, oid: written.tip.oid }]);
  return written.tip;
}
