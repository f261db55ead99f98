/**
 * The last commit touching a path, found by a short walk in this process: a first blob or
 * readme page of a repository, before its last-commit index holds the history, would
 * otherwise start `git rev-list -1 <from> -- <path>`, which takes ~4–6 ms whatever the
 * distance (process start-up most of it). A page opened from a commit asks about a path that
 * commit changed, which the walk answers at its first step in well under a millisecond. A
 * step reads a commit and a tree or two (20–100 µs each through delta chains), so the walk
 * is kept short — {@link NEAR_WALK_COMMITS} commits and {@link NEAR_WALK_MS} — and then leaves
 * the question to git: a path changed long ago costs about that much more than git alone.
 * (Racing git with a longer walk instead was measured slower: the two shared the cores.)
 *
 * The answer is rev-list's with its default history simplification (revision.c,
 * `try_to_simplify_commit`): a commit whose entry at the path (mode and id, or absence)
 * equals that of one of its parents is not shown, and the walk follows only the first such
 * parent; any other commit is shown, and the first one shown is the answer. A root commit is
 * shown when the path exists in it.
 */
import type { GitCommit } from './git-objects.js';
import type { GitRepository, ReadOptions } from './git-repository.js';
import type { Oid } from './oid.js';
import { findTreeEntryKey, kindOfMode } from './parse-tree.js';

/** Commits visited at most before the walk leaves the question to git. */
export const NEAR_WALK_COMMITS = 16;
/** Time the walk may take before it leaves the question to git, in ms. */
export const NEAR_WALK_MS = 1;

const SEQUENTIAL: ReadOptions = { sequential: true };

/** What {@link findLastChangeNear} reads through. */
export type LastChangeSource = Pick<GitRepository, 'readCommit' | 'readObject'>;

/** Thrown inside the walk when an object is missing or of another type: git decides then. */
class LeaveToGit extends Error {}

/**
 * @param source - commit and tree reads (walk reads: in process when the files answer)
 * @param question - start commit and the path's segments (validated, at least one)
 * @param options - commits visited at most ({@link NEAR_WALK_COMMITS}) and time allowed
 *   ({@link NEAR_WALK_MS}), checked before each step
 * @returns the commit, null when no commit in the history has the path, undefined when
 *   the walk gave up (too long, unreadable objects)
 */
export async function findLastChangeNear(
  source: LastChangeSource,
  question: { from: Oid; segments: readonly string[] },
  options: { limit?: number; budgetMs?: number } = {},
): Promise<Oid | null | undefined> {
  const deadline = performance.now() + (options.budgetMs ?? NEAR_WALK_MS);
  try {
    return await new LastChangeWalk(source, question.segments).run(question.from, options.limit ?? NEAR_WALK_COMMITS, deadline);
  } catch (error) {
    if (error instanceof LeaveToGit) return undefined;
    throw error;
  }
}

class LastChangeWalk {
  private readonly commits = new Map<Oid, GitCommit>();
  private readonly trees = new Map<Oid, Buffer>();
  /** Per commit: `<mode> <id>` of the path's entry, or null where the path is absent. */
  private readonly entries = new Map<Oid, string | null>();
  /** The path's segments as stored in trees (compared as bytes, as git does). */
  private readonly names: readonly Buffer[];

  constructor(
    private readonly source: LastChangeSource,
    segments: readonly string[],
  ) {
    this.names = segments.map((segment) => Buffer.from(segment, 'utf8'));
  }

  async run(from: Oid, limit: number, deadline: number): Promise<Oid | null | undefined> {
    // Every commit not shown has exactly one parent to follow and the first one shown ends
    // the walk, so rev-list's queue never holds more than one commit here: a chain.
    let commit = await this.commit(from);
    for (let visited = 0; visited < limit; visited += 1) {
      if (visited > 0 && performance.now() > deadline) return undefined;
      const mine = await this.entryOf(commit);
      if (commit.parents.length === 0) return mine === null ? null : commit.oid;
      const same = await this.sameParent(commit, mine);
      if (same === null) return commit.oid;
      commit = same;
    }
    return undefined;
  }

  /** The first parent whose entry at the path equals `mine`; null when every parent differs. */
  private async sameParent(commit: GitCommit, mine: string | null): Promise<GitCommit | null> {
    for (const oid of commit.parents) {
      const parent = await this.commit(oid);
      if (parent.tree === commit.tree || (await this.entryOf(parent)) === mine) return parent;
    }
    return null;
  }

  private async entryOf(commit: GitCommit): Promise<string | null> {
    let entry = this.entries.get(commit.oid);
    if (entry === undefined) {
      entry = await this.lookUp(commit.tree);
      this.entries.set(commit.oid, entry);
    }
    return entry;
  }

  private async lookUp(root: Oid): Promise<string | null> {
    let tree = root;
    for (let depth = 0; ; depth += 1) {
      const key = findTreeEntryKey(await this.tree(tree), this.names[depth] as Buffer);
      if (key === null || depth === this.names.length - 1) return key;
      const [mode, oid] = key.split(' ');
      if (kindOfMode(mode as string) !== 'tree') return null;
      tree = oid as Oid;
    }
  }

  private async commit(oid: Oid): Promise<GitCommit> {
    let commit = this.commits.get(oid);
    if (commit === undefined) {
      commit = (await this.source.readCommit(oid, SEQUENTIAL)) ?? undefined;
      if (commit === undefined) throw new LeaveToGit();
      this.commits.set(oid, commit);
    }
    return commit;
  }

  private async tree(oid: Oid): Promise<Buffer> {
    let data = this.trees.get(oid);
    if (data === undefined) {
      const object = await this.source.readObject(oid, SEQUENTIAL);
      if (object?.type !== 'tree') throw new LeaveToGit();
      data = object.data;
      this.trees.set(oid, data);
    }
    return data;
  }
}
