/**
 * The diffs of one repository: a commit against a commit from its long-lived `diff-tree`
 * processes, anything unusual from a `git diff-tree` of its own.
 */
import type { DiffNumstatOptions, DiffPatch, DiffPatchOptions, GitDiffs } from '../git-repository.js';
import type { Oid } from '../objects/oid.js';
import type { DiffTreeProcess } from '../processes/diff-tree-process.js';
import type { RepositoryContext } from '../repository-context.js';
import { diffNumstat, diffPatch } from './diff-patch.js';
import { assembleExactMoves, type ExactMovesPlan, planExactMoves } from './exact-moves.js';
import type { GitTarget } from '../processes/git-processes.js';

export class DiffReader implements GitDiffs {
  private readonly at: GitTarget;
  /** The long-lived diffs: the whole output, and one without renames and copies (exact-moves.ts). */
  private readonly diffTree: { readonly whole: DiffTreeProcess; readonly withoutMoves: DiffTreeProcess };

  constructor(context: RepositoryContext) {
    this.at = context.at;
    this.diffTree = context.diffTree;
  }

  async diffPatch(options: DiffPatchOptions): Promise<DiffPatch> {
    // Commit against commit: the long-lived diff-tree answers (null: anything unusual, such
    // as a root commit's empty-tree side, an empty diff or a cut one, goes to a spawned git).
    if (options.from !== null && Number.isSafeInteger(options.maxBytes)) {
      const range = { from: options.from, to: options.to };
      const moves: { plan: ExactMovesPlan | null } = { plan: null };
      const onRawRecords = (records: Buffer): boolean => (moves.plan = planExactMoves(records)) !== null;
      const patch = await this.diffTree.whole.diff(range, options.maxBytes, { ...options, onRawRecords });
      if (patch !== null) return { patch, truncated: false };
      // Many files moved unchanged: git's whole answer was abandoned for one without them.
      const assembled = moves.plan === null ? null : await this.diffWithoutMoves(range, options.maxBytes, moves.plan);
      if (assembled !== null) return { patch: assembled, truncated: false };
    }
    return diffPatch(this.at, options);
  }

  /** git's whole output for a diff of many exact moves (exact-moves.ts); null: git is asked as for anything unusual. */
  private async diffWithoutMoves(range: { from: Oid; to: Oid }, maxBytes: number, plan: ExactMovesPlan): Promise<Buffer | null> {
    // Moves alone: git would write nothing, and the plan holds everything.
    const filtered = plan.keptRecords.length === 0 ? Buffer.alloc(0) : await this.diffTree.withoutMoves.diff(range, maxBytes);
    const assembled = filtered === null ? null : assembleExactMoves(plan, filtered);
    return assembled !== null && assembled.length <= maxBytes ? assembled : null;
  }

  diffNumstat(options: DiffNumstatOptions): Promise<DiffPatch> {
    return diffNumstat(this.at, options);
  }
}
