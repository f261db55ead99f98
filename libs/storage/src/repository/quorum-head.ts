import { compareUtf8, InvalidDataError } from '@forge-httpd/identity';
import type { GitRepository } from '../git/git-repository.js';
import type { Oid } from '../git/objects/oid.js';

/** Inputs of {@link computeQuorumHead}. */
export interface QuorumInput {
  git: Pick<GitRepository, 'mergeBase'>;
  /**
   * The delegates' branch tips ordered by delegate key (heartwood's BTreeMap; NID text order),
   * delegates without the branch left out.
   */
  tips: readonly Oid[];
  threshold: number;
}

/**
 * Computes the canonical head of a branch by delegate quorum (docs/node-home.md §3.3, heartwood
 * 0.15): each delegate's tip votes for itself, and for every pair of distinct tips where one
 * is an ancestor of the other the older one gains a vote; of the candidates reaching the
 * threshold, in ascending oid order, the one every other candidate is an ancestor of wins.
 * @throws InvalidDataError when no tip reaches the threshold or candidates diverge
 */
export async function computeQuorumHead(input: QuorumInput): Promise<Oid> {
  const { tips } = input;
  const votes = new Map<Oid, number>();
  for (const tip of tips) votes.set(tip, (votes.get(tip) ?? 0) + 1);
  for (let i = 0; i < tips.length; i += 1) {
    for (let j = i + 1; j < tips.length; j += 1) {
      const [a, b] = [tips[i] as Oid, tips[j] as Oid];
      if (a === b) continue;
      const base = await input.git.mergeBase(a, b);
      if (base !== null && (base === a || base === b)) votes.set(base, (votes.get(base) ?? 0) + 1);
    }
  }
  const candidates = [...votes]
    .filter(([, count]) => count >= input.threshold)
    .map(([oid]) => oid)
    .sort(compareUtf8);
  return pickLongest(input.git, candidates);
}

async function pickLongest(git: Pick<GitRepository, 'mergeBase'>, candidates: Oid[]): Promise<Oid> {
  const [first, ...rest] = candidates;
  if (first === undefined) throw new InvalidDataError('head', 'no head candidate reaches the threshold');
  let longest = first;
  for (const candidate of rest) {
    const base = await git.mergeBase(candidate, longest);
    if (base === longest) longest = candidate;
    else if (base !== candidate) throw new InvalidDataError('head', 'delegate branches diverge');
  }
  return longest;
}
