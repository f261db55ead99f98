import type { GitSignature, Oid } from '@forge-httpd/storage';
import { writeCommit, writeFileTree, type FileContent } from './objects.js';

/** One generated commit: file changes relative to its parent and exact metadata. */
export interface GeneratedCommit {
  /** Message bytes, verbatim (libgit2-style messages may lack the final newline). */
  readonly message: string;
  /** Paths to add or replace; `null` deletes the path. */
  readonly changes: Readonly<Record<string, FileContent | null>>;
  readonly author: GitSignature;
  /** Defaults to the author. */
  readonly committer?: GitSignature;
}

/** Where a generated chain starts: a commit and its full file map. */
export interface HistoryTip {
  readonly oid: Oid;
  readonly files: Readonly<Record<string, FileContent>>;
}

/** Result of {@link writeGeneratedHistory}. */
export interface GeneratedHistory {
  /** Commit ids in the order written (oldest first). */
  readonly commits: readonly Oid[];
  /** The last commit with its full file map, usable as the parent of a later chain. */
  readonly tip: HistoryTip;
}

/**
 * Writes a linear chain of commits with exact bytes (loose objects). Deterministic: the same
 * commits on the same parent always give the same ids.
 * @param options - repository, optional parent tip, commits oldest first (at least one)
 * @returns the commit ids and the new tip
 */
export async function writeGeneratedHistory(options: { gitDir: string; parent?: HistoryTip; commits: readonly GeneratedCommit[] }): Promise<GeneratedHistory> {
  if (options.commits.length === 0) throw new Error('a generated history needs at least one commit');
  let files: Record<string, FileContent> = { ...(options.parent?.files ?? {}) };
  let parent = options.parent?.oid;
  const commits: Oid[] = [];
  for (const commit of options.commits) {
    files = applyChanges(files, commit.changes);
    const tree = await writeFileTree(options.gitDir, files);
    parent = await writeCommit(options.gitDir, {
      tree,
      parents: parent === undefined ? [] : [parent],
      author: commit.author,
      committer: commit.committer ?? commit.author,
      message: commit.message,
    });
    commits.push(parent);
  }
  return { commits, tip: { oid: commits[commits.length - 1] as Oid, files } };
}

function applyChanges(files: Record<string, FileContent>, changes: Readonly<Record<string, FileContent | null>>): Record<string, FileContent> {
  const next = { ...files };
  for (const [filePath, content] of Object.entries(changes)) {
    if (content === null) delete next[filePath];
    else next[filePath] = content;
  }
  return next;
}

/**
 * The working repository of heartwood's CLI tests (`fixtures::repository`, docs/node-home.md
 * Appendix A): "Initial commit" (empty tree) and "Second commit" (`README`), both by
 * `anonymous <anonymous@radicle.xyz> 1514817556 +0000`, libgit2 messages without final newline.
 * @returns the two commits, oldest first
 */
export function heartwoodFixtureCommits(): GeneratedCommit[] {
  const author: GitSignature = { name: 'anonymous', email: 'anonymous@radicle.xyz', time: 1514817556, offset: '+0000' };
  return [
    { message: 'Initial commit', changes: {}, author },
    { message: 'Second commit', changes: { README: 'Hello World!\n' }, author },
  ];
}
