import type { Oid } from './oid.js';
import type { DiffStats } from './git-repository.js';
import { EMPTY_TREE_OID, InvalidOidError, isOid } from './oid.js';
import { runGit } from './run-git.js';

/** The same pairing options as the patch (`diff-patch.ts`), so both count the same files. */
const NUMSTAT_OPTIONS = ['diff-tree', '-r', '-z', '--numstat', '-M', '-C', '--no-color', '--no-ext-diff', '--no-textconv'];

/**
 * Counts the changes between two commits or trees like `git diff --numstat`: changed files,
 * inserted and deleted lines (binary files count as a file with no lines).
 * @param gitDir - repository
 * @param range - old side (null = the empty tree) and new side
 * @returns the three counts
 * @throws InvalidOidError for malformed ids; GitCommandError when git fails (unknown object)
 */
export async function diffStats(gitDir: string, range: { from: Oid | null; to: Oid }): Promise<DiffStats> {
  const from = range.from ?? EMPTY_TREE_OID;
  if (!isOid(from) || !isOid(range.to)) throw new InvalidOidError();
  const { stdout } = await runGit({ gitDir, args: [...NUMSTAT_OPTIONS, '--end-of-options', from, range.to] });
  return parseNumstat(stdout.toString('latin1'));
}

/**
 * Parses `--numstat -z` output: `added\tdeleted\tpath\0` per file, or `added\tdeleted\t\0old\0new\0`
 * for a rename or copy; `-` counts (binary) add nothing.
 */
export function parseNumstat(text: string): DiffStats {
  const tokens = text.split('\0');
  let filesChanged = 0;
  let insertions = 0;
  let deletions = 0;
  for (let i = 0; i < tokens.length; i += 1) {
    const match = /^(\d+|-)\t(\d+|-)\t(.*)$/s.exec(tokens[i] as string);
    if (match === null) continue;
    filesChanged += 1;
    insertions += match[1] === '-' ? 0 : Number(match[1]);
    deletions += match[2] === '-' ? 0 : Number(match[2]);
    // A pair of paths follows in their own tokens: skip them.
    if (match[3] === '') i += 2;
  }
  return { filesChanged, insertions, deletions };
}
