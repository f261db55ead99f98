import type { Nid } from '@forge-httpd/identity';
import { type Oid } from '@forge-httpd/storage';
import { updateRefs } from '@forge-httpd/storage/write';
import { runGit } from './git-cli.js';

/**
 * Computes the canonical head of a branch from the delegates' tips with heartwood 0.15's quorum
 * (docs/node-home.md §3.3): one vote per tip, +1 for the older tip of every ancestor pair, keep
 * tips with ≥ threshold votes, then take the longest of those in ascending-oid order.
 * @param options - repository, delegates (NIDs), threshold, branch name (without refs/heads/)
 * @returns the head, or null when no delegate has the branch or no candidate reaches quorum
 * @throws Error when candidates diverge
 */
export async function computeCanonicalHead(options: { gitDir: string; delegates: readonly Nid[]; threshold: number; branch: string }): Promise<Oid | null> {
  const tips: Oid[] = [];
  for (const nid of [...options.delegates].sort()) {
    const tip = await resolveRef(options.gitDir, `refs/namespaces/${nid}/refs/heads/${options.branch}`);
    if (tip !== null) tips.push(tip);
  }
  const votes = new Map<Oid, number>();
  for (const tip of tips) votes.set(tip, (votes.get(tip) ?? 0) + 1);
  for (let i = 0; i < tips.length; i++) {
    for (let j = i + 1; j < tips.length; j++) {
      const [a, b] = [tips[i] as Oid, tips[j] as Oid];
      if (a === b) continue;
      const base = await mergeBase(options.gitDir, a, b);
      if (base === a || base === b) votes.set(base, (votes.get(base) ?? 0) + 1);
    }
  }
  const candidates = [...votes]
    .filter(([, count]) => count >= options.threshold)
    .map(([oid]) => oid)
    .sort();
  return pickLongest(options.gitDir, candidates);
}

async function pickLongest(gitDir: string, candidates: readonly Oid[]): Promise<Oid | null> {
  let longest = candidates[0] ?? null;
  for (const candidate of candidates.slice(1)) {
    if (longest === null) break;
    const base = await mergeBase(gitDir, candidate, longest);
    if (base === longest) longest = candidate;
    else if (base !== candidate) throw new Error('canonical head: delegates diverge');
  }
  return longest;
}

/**
 * Writes the canonical default branch like the node after `rad init`/fetch (§3.3, §10.2 step 7):
 * top-level `refs/heads/<branch>` and `HEAD` → `ref: refs/heads/<branch>`.
 * @returns the head written, or null when there is no quorum (nothing is written then)
 */
export async function updateCanonicalHead(options: { gitDir: string; delegates: readonly Nid[]; threshold: number; branch: string }): Promise<Oid | null> {
  const head = await computeCanonicalHead(options);
  if (head === null) return null;
  await updateRefs(options.gitDir, [
    { name: `refs/heads/${options.branch}`, oid: head },
    { name: 'HEAD', symbolicTarget: `refs/heads/${options.branch}` },
  ]);
  return head;
}

/** Resolves a ref (symbolic refs followed) to an oid, or null when absent. */
async function resolveRef(gitDir: string, name: string): Promise<Oid | null> {
  const out = await runGit(['rev-parse', '--verify', '--quiet', '--end-of-options', name], {
    gitDir,
    okExitCodes: [0, 1],
  });
  const oid = out.trim();
  return /^[0-9a-f]{40}$/.test(oid) ? (oid as Oid) : null;
}

async function mergeBase(gitDir: string, a: Oid, b: Oid): Promise<Oid | null> {
  const out = await runGit(['merge-base', a, b], { gitDir, okExitCodes: [0, 1] });
  const oid = out.trim();
  return /^[0-9a-f]{40}$/.test(oid) ? (oid as Oid) : null;
}
