/**
 * The diff oracle: for N commits of a real repository, libs/diff must reproduce git's own
 * diff output byte for byte (parse → format) and git's `--numstat` line counts.
 */
import { performance } from 'node:perf_hooks';
import { formatGitPatch, parseGitPatch, type FileDiff } from '@forge-httpd/diff';
import { EMPTY_TREE, execGit, gitDiff } from '@forge-httpd/builder/scratch';
import { compareNumstat, parseNumstat } from './numstat.js';

/** What to compare. */
export interface OracleOptions {
  readonly gitDir: string;
  /** How many commits to walk (newest first, from all refs). */
  readonly commits: number;
}

/** One disagreement between libs/diff and git. */
export interface OracleMismatch {
  readonly commit: string;
  readonly kind: 'render' | 'numstat' | 'error';
  readonly detail: string;
}

/** Totals of one oracle run; times in milliseconds. */
export interface OracleReport {
  readonly commits: number;
  readonly files: number;
  readonly patchBytes: number;
  readonly mismatches: OracleMismatch[];
  /** How often each kind of change was seen, e.g. `status:moved`, `content:binary`, `mode:link`. */
  readonly tally: Readonly<Record<string, number>>;
  readonly timings: { readonly git: number; readonly parse: number; readonly format: number };
}

/**
 * Runs the oracle over the newest `commits` commits (each diffed against its first parent,
 * root commits against the empty tree).
 * @param options - repository and commit count
 * @returns counts, mismatches and timings
 */
export async function runDiffOracle(options: OracleOptions): Promise<OracleReport> {
  const list = await execGit({
    gitDir: options.gitDir,
    args: ['rev-list', '--all', '--parents', `--max-count=${options.commits}`],
  });
  const commits = list
    .toString('latin1')
    .split('\n')
    .filter((line) => line !== '');
  const totals: Totals = { files: 0, patchBytes: 0, git: 0, parse: 0, format: 0, tally: {} };
  const mismatches: OracleMismatch[] = [];
  for (const line of commits) {
    const [commit = '', parent = null] = line.split(' ');
    try {
      mismatches.push(...(await checkCommit(options.gitDir, commit, parent, totals)));
    } catch (error) {
      mismatches.push({ commit, kind: 'error', detail: error instanceof Error ? error.message : String(error) });
    }
  }
  const { git, parse, format } = totals;
  const { files, patchBytes, tally } = totals;
  return { commits: commits.length, files, patchBytes, mismatches, tally, timings: { git, parse, format } };
}

type Totals = { files: number; patchBytes: number; git: number; parse: number; format: number; tally: Record<string, number> };

function countKinds(files: readonly FileDiff[], tally: Record<string, number>): void {
  const bump = (key: string) => {
    tally[key] = (tally[key] ?? 0) + 1;
  };
  for (const file of files) {
    bump(`status:${file.status}`);
    bump(`content:${file.content.type}`);
    if (file.content.type === 'plain') bump(`eof:${file.content.eof}`);
    if (file.typeChange) bump('typeChange');
    for (const side of [file.old, file.new]) if (side !== null) bump(`mode:${side.mode}`);
    if (/[^\x20-\x7e]/.test(file.newPath)) bump('path:unusual');
  }
}

async function checkCommit(gitDir: string, commit: string, parent: string | null, totals: Totals): Promise<OracleMismatch[]> {
  let started = performance.now();
  const output = await gitDiff(gitDir, parent, commit);
  totals.git += performance.now() - started;
  started = performance.now();
  const files = parseGitPatch(output);
  totals.parse += performance.now() - started;
  started = performance.now();
  const rendered = formatGitPatch(files);
  totals.format += performance.now() - started;
  totals.files += files.length;
  countKinds(files, totals.tally);
  totals.patchBytes += output.length;
  const mismatches: OracleMismatch[] = [];
  if (!rendered.equals(output)) mismatches.push({ commit, kind: 'render', detail: firstDifference(output, rendered) });
  const numstat = await checkNumstat(gitDir, { commit, parent, files });
  if (numstat !== null) mismatches.push({ commit, kind: 'numstat', detail: numstat });
  return mismatches;
}

async function checkNumstat(gitDir: string, diff: { commit: string; parent: string | null; files: readonly FileDiff[] }): Promise<string | null> {
  const args = ['diff-tree', '-r', '-z', '--numstat', '-M', '-C', '--end-of-options', diff.parent ?? EMPTY_TREE, diff.commit];
  return compareNumstat(parseNumstat(await execGit({ gitDir, args })), diff.files);
}

function firstDifference(expected: Buffer, actual: Buffer): string {
  let at = 0;
  while (at < expected.length && at < actual.length && expected[at] === actual[at]) at++;
  const show = (bytes: Buffer) => JSON.stringify(bytes.toString('latin1', Math.max(0, at - 60), at + 60));
  return `byte ${at} (git ${expected.length} bytes, rendered ${actual.length}): git ${show(expected)} rendered ${show(actual)}`;
}
