import { BusyError, ProcessFailedError } from '@forge-httpd/identity';
import type { Oid } from '../objects/oid.js';
import { invalidOid, isOid } from '../objects/oid.js';
import { runGit } from '../processes/run-git.js';
import type { GitTarget } from '../processes/git-processes.js';

/** A count of both sides is stopped past this long (a BusyError). */
const COUNT_TIMEOUT_MS = 30_000;

/**
 * Finds the best common ancestor of two commits (`git merge-base`).
 * @param at - repository, and the processes git runs under
 * @param commits - the two commits
 * @returns the merge base, or null when the histories share no commit
 * @throws InvalidInputError for malformed ids; ProcessFailedError when a commit is unknown
 */
export async function mergeBase(at: GitTarget, [a, b]: readonly [Oid, Oid]): Promise<Oid | null> {
  checkOids(a, b);
  const { stdout, exitCode } = await runGit({
    ...at,
    args: ['merge-base', '--end-of-options', a, b],
    okExitCodes: [0, 1],
  });
  const base = stdout.toString('latin1').trim();
  return exitCode === 0 && isOid(base) ? base : null;
}

/**
 * Tells whether `ancestor` is reachable from `descendant` (`git merge-base --is-ancestor`).
 * @param at - repository, and the processes git runs under
 * @param pair - candidate ancestor and descendant commits
 * @returns true when reachable (a commit is its own ancestor)
 * @throws InvalidInputError for malformed ids; ProcessFailedError when a commit is unknown
 */
export async function isAncestor(at: GitTarget, { ancestor, descendant }: { ancestor: Oid; descendant: Oid }): Promise<boolean> {
  checkOids(ancestor, descendant);
  const { exitCode } = await runGit({
    ...at,
    args: ['merge-base', '--is-ancestor', '--end-of-options', ancestor, descendant],
    okExitCodes: [0, 1],
  });
  return exitCode === 0;
}

/**
 * Counts the commits each side alone reaches (`git rev-list --left-right --count base...head`).
 * @param at - repository, and the processes git runs under
 * @param sides - the two commits
 * @returns `ahead` (only `head` reaches them) and `behind` (only `base`)
 * @throws InvalidInputError for malformed ids; ProcessFailedError when a commit is unknown
 */
export async function countAheadBehind(at: GitTarget, { base, head }: { base: Oid; head: Oid }): Promise<{ ahead: number; behind: number }> {
  checkOids(base, head);
  const onTimeout = (): Error => new BusyError('counting commits took too long');
  const args = ['rev-list', '--left-right', '--count', '--end-of-options', `${base}...${head}`];
  const { stdout } = await runGit({ ...at, args, timeoutMs: COUNT_TIMEOUT_MS, onTimeout });
  const [behind, ahead] = stdout.toString('latin1').trim().split(/\s+/).map(Number);
  if (!Number.isSafeInteger(behind) || !Number.isSafeInteger(ahead)) throw new ProcessFailedError('unexpected rev-list output');
  return { ahead: ahead as number, behind: behind as number };
}

function checkOids(...oids: Oid[]): void {
  for (const oid of oids) if (!isOid(oid)) throw invalidOid();
}
