/**
 * The object reads of one repository: from the pack and loose files in process when they
 * answer exactly and no process is better placed, else through the repository's long-lived
 * `cat-file` (module comment of object-files.ts).
 */
import type { BatchAnswer } from './batch-response-parser.js';
import type { CatFileProcess } from './cat-file-process.js';
import { findEntry } from '../format/find-entry.js';
import type { GitCommit, GitObject, GitObjectInfo, GitTag, TreeEntry } from '../format/git-objects.js';
import type { GitObjectReads, ReadOptions } from '../git-repository.js';
import type { ObjectFiles } from '../objects/object-files.js';
import { checkOid, type Oid } from '../objects/oid.js';
import { parseCommit } from '../format/parse-commit.js';
import { parseTag } from '../format/parse-tag.js';
import { parseTree } from '../format/parse-tree.js';
import { ReadRate } from '../limits/read-rate.js';
import type { RepositoryContext } from '../repository-context.js';

/**
 * Reads of a repository in a second from which a busy thread hands them to a cat-file it
 * starts for them; below it they stay in process.
 */
export const BUSY_READS_FOR_A_PROCESS = 32;

/** Annotated tags nested deeper than this are treated as not peelable (cycles are impossible, chains are not). */
const MAX_TAG_DEPTH = 16;

export class ObjectReader implements GitObjectReads {
  private readonly catFile: CatFileProcess;
  private readonly objectFiles: ObjectFiles;
  private readonly load: { isBusy(): boolean };
  /** Reads asked of this repository lately, while no cat-file runs for it ({@link throughGit}). */
  private readonly reads = new ReadRate();

  constructor(context: RepositoryContext) {
    this.catFile = context.catFile;
    this.objectFiles = context.objectFiles;
    this.load = context.load;
  }

  async readObject(oid: Oid, options: ReadOptions = {}): Promise<GitObject | null> {
    checkOid(oid);
    const stored = this.throughGit(options) ? undefined : this.objectFiles.read(oid);
    if (stored !== undefined) return stored;
    return objectOf(await this.catFile.request(oid, true));
  }

  /**
   * Where a read goes. In process it needs no process: a repository's first pages, and
   * repositories read now and then, start none. Through cat-file it costs a round trip but the
   * inflating happens on git's core, so once cat-file runs for this repository it answers, as
   * it does whenever this thread is the bottleneck ({@link ThreadLoad}) and for bulk reads,
   * which start it (thousands of reads at once: git inflates while this thread evaluates).
   * A walk's reads stay in process, busy or not and while cat-file runs too: each waits for
   * the one before, so a round trip per step would be the walk's whole cost. A busy thread
   * starts a cat-file only for a repository read a lot ({@link BUSY_READS_FOR_A_PROCESS} in a
   * second): the start of one for the few reads of a repository on a listing page costs that
   * page more than the reads, while a crawl of one repository reaches the count at once.
   */
  private throughGit(options: ReadOptions): boolean {
    if (options.sequential === true) return false;
    if (options.bulk === true || this.catFile.isRunning()) return true;
    return this.reads.add() >= BUSY_READS_FOR_A_PROCESS && this.load.isBusy();
  }

  async startBulkReads(): Promise<void> {
    if (this.catFile.isRunning()) return;
    // Any name works: git starts, answers (found or missing), and stays for the reads to come.
    await this.catFile.request('HEAD', false).then(
      () => undefined,
      () => undefined,
    );
  }

  async readObjectInfo(oid: Oid, options: ReadOptions = {}): Promise<GitObjectInfo | null> {
    checkOid(oid);
    const stored = this.throughGit(options) ? undefined : this.objectFiles.readInfo(oid);
    if (stored !== undefined) return stored;
    const answer = await this.catFile.request(oid, false);
    return answer.found ? { type: answer.type, size: answer.size } : null;
  }

  async readCommit(oid: Oid, options?: ReadOptions): Promise<GitCommit | null> {
    return commitOf(oid, await this.readObject(oid, options));
  }

  async readCommits(oids: readonly Oid[], options: ReadOptions = {}): Promise<Array<GitCommit | null>> {
    // readObject's choice per commit, with one promise per commit instead of one per layer;
    // each is parsed as its answer arrives, while git writes the next ones. Every id is
    // checked before any is asked for: a throw midway would leave answers nobody awaits.
    for (const oid of oids) checkOid(oid);
    const commits = new Array<GitCommit | null>(oids.length).fill(null);
    const answered: Array<Promise<void>> = [];
    try {
      oids.forEach((oid, index) => {
        const stored = this.throughGit(options) ? undefined : this.objectFiles.read(oid);
        if (stored !== undefined) commits[index] = commitOf(oid, stored);
        else {
          answered.push(
            this.catFile.request(oid, true).then((answer) => {
              commits[index] = commitOf(oid, objectOf(answer));
            }),
          );
        }
      });
    } catch (error) {
      // A damaged object read here: the answers already asked for end before the error goes on.
      await Promise.allSettled(answered);
      throw error;
    }
    await Promise.all(answered);
    return commits;
  }

  async readTree(oid: Oid, options?: ReadOptions): Promise<TreeEntry[] | null> {
    const object = await this.readObject(oid, options);
    return object?.type === 'tree' ? parseTree(object.data) : null;
  }

  async readBlob(oid: Oid, options?: ReadOptions): Promise<Buffer | null> {
    const object = await this.readObject(oid, options);
    return object?.type === 'blob' ? object.data : null;
  }

  async readTag(oid: Oid): Promise<GitTag | null> {
    const object = await this.readObject(oid);
    return object?.type === 'tag' ? parseTag(oid, object.data) : null;
  }

  async peelToCommit(oid: Oid): Promise<Oid | null> {
    // Type first: a commit (nearly every ref) needs only its entry headers, not its inflated
    // content; only tags are read whole, which keeps peeling a tracker's thousands of branches cheap.
    let current = oid;
    for (let depth = 0; depth <= MAX_TAG_DEPTH; depth += 1) {
      const info = await this.readObjectInfo(current);
      if (info?.type === 'commit') return current;
      const tag = info?.type === 'tag' ? await this.readTag(current) : null;
      if (tag === null) return null;
      current = tag.object;
    }
    return null;
  }

  async findEntry(commitOrTreeOid: Oid, path: string): Promise<TreeEntry | null> {
    return findEntry(this, { start: checkOid(commitOrTreeOid), path });
  }
}

/** The object of a cat-file `contents` answer; null when git has none. */
function objectOf(answer: BatchAnswer): GitObject | null {
  return answer.found && answer.data !== undefined ? { type: answer.type, data: answer.data } : null;
}

/** The commit `object` holds; null when there is none or it is another kind. */
function commitOf(oid: Oid, object: GitObject | null): GitCommit | null {
  return object?.type === 'commit' ? parseCommit(oid, object.data) : null;
}
