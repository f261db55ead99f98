/**
 * The ref reads of one repository: single refs from the loose ref files and `packed-refs`
 * when they answer exactly, else by its `cat-file`; listings from the ref listing cache.
 */
import type { GitRefReads, RefEntry } from '../git-repository.js';
import { listSortedRefFiles, type PackedRefsFile } from '../objects/loose-files.js';
import type { ObjectFiles } from '../objects/object-files.js';
import type { Oid } from '../objects/oid.js';
import { checkRefName, invalidRefName, isValidRefPrefix } from '../objects/ref-name.js';
import type { CatFileProcess } from '../processes/cat-file-process.js';
import type { RepositoryContext } from '../repository-context.js';
import type { RefListing, RefListingCache } from './ref-listing-cache.js';
import { listRefs, readSymbolicRef } from './refs.js';
import type { GitTarget } from '../processes/git-processes.js';

export class RefReader implements GitRefReads {
  private readonly gitDir: string;
  private readonly refFiles: PackedRefsFile;
  private readonly objectFiles: ObjectFiles;
  private readonly catFile: CatFileProcess;
  private readonly refListings: RefListingCache;

  constructor(context: RepositoryContext) {
    this.gitDir = context.gitDir;
    this.refFiles = context.refFiles;
    this.objectFiles = context.objectFiles;
    this.catFile = context.catFile;
    this.refListings = context.refListings;
  }

  async resolveRef(name: string): Promise<Oid | null> {
    // A plain loose or packed ref whose object the files hold is answered here; cat-file
    // resolves the rest (symbolic refs, absent refs and objects) and re-reads them every time.
    // The object's entry header says it is there; inflating it would say nothing more.
    const target = this.refFiles.resolve(checkRefName(name));
    if (typeof target === 'string' && this.objectFiles.readInfo(target) !== undefined) return target;
    const answer = await this.catFile.request(name, false);
    return answer.found ? answer.oid : null;
  }

  readSymbolicRef(name: string): Promise<string | null> {
    return readSymbolicRef(this.gitDir, name);
  }

  async listRefs(prefix: string): Promise<readonly RefEntry[]> {
    // Validated before the cache turns the prefix into a directory to stat.
    if (!isValidRefPrefix(prefix)) throw invalidRefName('prefix');
    return this.refListings.get(prefix);
  }
}

/**
 * The refs under `prefix` as `git for-each-ref` lists them, for the ref listing cache: read
 * from the ref files when they tell exactly (loose and packed refs with valid ASCII names,
 * symbolic ones pointing at a plain ref under the prefix; like git, a ref whose object is
 * missing is listed), else by git. A tracker's first page after a restart would otherwise start
 * a process and parse its output for refs the `packed-refs` just read for the identity check
 * already holds.
 * @param gitDir - the repository
 * @param refFiles - its `packed-refs`, as the repository reads it
 * @param prefix - a validated ref prefix ending with `/`
 * @returns the listing
 */
export async function listRefsUncached(at: GitTarget, refFiles: PackedRefsFile, prefix: string): Promise<RefListing> {
  const listed = listSortedRefFiles(at.gitDir, prefix, refFiles);
  return listed !== undefined ? { entries: listed, selfContained: true } : listRefs(at, prefix);
}
