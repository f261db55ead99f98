#!/usr/bin/env node
/**
 * CLI of the diff oracle: `node tools/dist/diff-oracle/run.js --git-dir DIR [--commits 500]`.
 * Prints a summary; exits 1 when libs/diff disagrees with git on any commit.
 */
import { parseArgs } from 'node:util';
import { runDiffOracle } from './oracle.js';

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { 'git-dir': { type: 'string' }, commits: { type: 'string', default: '500' } },
  });
  const gitDir = values['git-dir'];
  const commits = Number.parseInt(values.commits, 10);
  if (gitDir === undefined || !Number.isSafeInteger(commits) || commits <= 0) {
    process.stderr.write('usage: run.js --git-dir DIR [--commits N]\n');
    return 2;
  }
  const report = await runDiffOracle({ gitDir, commits });
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  const perCommit = (value: number) => `${(value / Math.max(1, report.commits)).toFixed(2)} ms/commit`;
  process.stdout.write(
    [
      `commits compared: ${report.commits}`,
      `files compared:   ${report.files}`,
      `patch bytes:      ${report.patchBytes}`,
      `mismatches:       ${report.mismatches.length}`,
      `git diff-tree:    ${ms(report.timings.git)} (${perCommit(report.timings.git)})`,
      `parseGitPatch:    ${ms(report.timings.parse)} (${perCommit(report.timings.parse)})`,
      `formatGitPatch:   ${ms(report.timings.format)} (${perCommit(report.timings.format)})`,
      `kinds seen:       ${Object.entries(report.tally)
        .sort()
        .map(([key, count]) => `${key}=${count}`)
        .join(' ')}`,
      ...report.mismatches.slice(0, 20).map((m) => `  ${m.kind} ${m.commit}: ${m.detail}`),
      '',
    ].join('\n'),
  );
  return report.mismatches.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`diff oracle failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
