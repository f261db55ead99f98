import type { DiffNumstatOptions, DiffPatch, DiffPatchOptions } from '../git-repository.js';
import { EMPTY_TREE_OID, invalidOid, isOid } from '../objects/oid.js';
import { runGit } from '../processes/run-git.js';
import type { GitTarget } from '../processes/git-processes.js';

/** The exact diff-tree options libs/diff's `parseGitPatch` reads (libs/diff/README.md "Input format"). */
export const DIFF_TREE_OPTIONS: readonly string[] = [
  'diff-tree',
  '-r',
  '-z',
  '--raw',
  '-p',
  '-M',
  '-C',
  '--full-index',
  '--no-color',
  '--no-ext-diff',
  '--no-textconv',
  '--src-prefix=a/',
  '--dst-prefix=b/',
];

/** The same pairing (`-r -M -C`, no textconv) with per-file line counts instead of the patch. */
const NUMSTAT_OPTIONS = ['diff-tree', '-r', '-z', '--numstat', '-M', '-C', '--no-color', '--no-ext-diff', '--no-textconv'];

/**
 * Produces the raw records and the patch between two commits or trees in one output:
 * `git diff-tree -r -z --raw -p -M -C --full-index` (rename and copy detection, NUL-separated
 * raw records with modes and full ids, then git's default hunks and function context).
 * External diff drivers and textconv are disabled. Output beyond `maxBytes` is not read:
 * the process is killed and the result marked truncated.
 * @param at - repository, and the processes git runs under
 * @param options - old side (null = empty tree), new side and byte cap
 * @returns raw patch bytes and whether they were truncated
 * @throws InvalidInputError for malformed ids; ProcessFailedError when git fails (unknown object)
 */
export function diffPatch(at: GitTarget, options: DiffPatchOptions): Promise<DiffPatch> {
  return runDiffTree(at, DIFF_TREE_OPTIONS, options);
}

/**
 * git's per-file line counts between two commits or trees, with the same rename/copy pairing
 * as {@link diffPatch}: `git diff-tree -r -z --numstat -M -C` (git-diff(1), "--numstat": one
 * record per raw record, `-\t-` for binary files). Used for the files past a diff's byte cap.
 * @param at - repository, and the processes git runs under
 * @param options - old side (null = empty tree), new side and byte cap
 * @returns the raw `-z` numstat bytes (at most maxBytes) and whether they were truncated
 * @throws InvalidInputError for malformed ids; ProcessFailedError when git fails (unknown object)
 */
export function diffNumstat(at: GitTarget, options: DiffNumstatOptions): Promise<DiffPatch> {
  return runDiffTree(at, NUMSTAT_OPTIONS, options);
}

async function runDiffTree(at: GitTarget, command: readonly string[], options: DiffPatchOptions): Promise<DiffPatch> {
  const from = options.from ?? EMPTY_TREE_OID;
  if (!isOid(from) || !isOid(options.to)) throw invalidOid();
  if (!Number.isSafeInteger(options.maxBytes) || options.maxBytes < 0) throw new RangeError('maxBytes');
  const { stdout, truncated } = await runGit({
    ...at,
    args: [...command, '--end-of-options', from, options.to],
    maxBytes: options.maxBytes,
  });
  return { patch: stdout, truncated };
}
