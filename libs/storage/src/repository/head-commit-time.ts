import { readRefFile, readSymbolicRefFile } from '../git/objects/loose-files.js';
import { withObjectFiles } from '../git/objects/object-files.js';
import type { StorageRuntime } from '../git/storage-runtime.js';
import type { Oid } from '../git/objects/oid.js';
import { parseCommit } from '../git/format/parse-commit.js';
import type { StoredRepository } from './stored-repository.js';

/** The head commit of a repository and its committer time (seconds). */
export interface HeadCommitTime {
  readonly oid: Oid;
  readonly time: number;
}

/**
 * The committer time of the repository head, read from its files (`HEAD` → the branch's ref →
 * the commit, loose or packed), with no git process.
 * @param gitDir - the repository
 * @param runtime - the runtime whose object reads it shares
 * @param previous - the last answer: reused without reading the commit when the head did not move
 * @returns the head and its time, or undefined when git must answer ({@link readHeadCommitTime})
 */
export function readHeadCommitTimeFromFiles(gitDir: string, runtime: StorageRuntime, previous?: HeadCommitTime): HeadCommitTime | undefined {
  const target = readSymbolicRefFile(gitDir, 'HEAD');
  const oid = target === undefined ? undefined : readRefFile(gitDir, target);
  if (oid === undefined || oid === null) return undefined;
  if (previous?.oid === oid) return previous;
  const object = withObjectFiles(gitDir, runtime.objects, (read) => read(oid));
  if (object?.type !== 'commit') return undefined;
  try {
    return { oid, time: parseCommit(oid, object.data).committer.time };
  } catch {
    return undefined;
  }
}

/**
 * The committer time of the repository head (docs/node-home.md §3.2 step 3) through git.
 * @returns the head and its time, or null when the repository has no usable head
 */
export async function readHeadCommitTime(repository: StoredRepository): Promise<HeadCommitTime | null> {
  try {
    const head = await repository.head();
    const commit = await repository.git.readCommit(head.oid);
    return commit === null ? null : { oid: head.oid, time: commit.committer.time };
  } catch {
    return null;
  }
}
