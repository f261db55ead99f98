import { NotFoundError, TooLargeError } from '@forge-httpd/identity';
import { Injectable } from '@nestjs/common';
import type { Blob } from '@forge-httpd/api-types';
import type { GitCommit, GitRepository, Oid, TreeEntry } from '@forge-httpd/storage';
import { GitContentService } from '../git-content/git-content.service.js';
import { toCommit } from '../git-content/commit.mapper.js';
import { RepositoryAccess } from '../repository-access/repository-access.service.js';
import { toBlob } from './blob.mapper.js';

/** Largest blob served (docs/api.md "Limits"); larger ones answer 413. */
const BLOB_MAX_BYTES = 4_194_304;

/** Readme names in the order of docs/api.md operation 18 (the last lower-case form repeats one). */
const README_CANDIDATES: readonly string[] = (() => {
  const names = ['README', 'README.md', 'README.markdown', 'README.txt', 'README.rst', 'README.org', 'Readme.md'];
  return [...names, ...names.map((name) => name.toLowerCase())];
})();

/** Files and readmes at a commit (docs/api.md 17–18). */
@Injectable()
export class BlobService {
  constructor(
    private readonly access: RepositoryAccess,
    private readonly content: GitContentService,
  ) {}

  /**
   * `GET /blob/{sha}/{path}` (docs/radicle-httpd.md §5.17).
   * @throws NotFoundError; NotFoundError when the path is empty, ends with `/`, is
   *   missing or names a directory or submodule; TooLargeError above 4 MiB
   */
  async getBlob(ridText: string, request: { sha: Oid; path: string }): Promise<Blob> {
    const { git } = await this.access.openPublic(ridText);
    const commit = await this.content.requireCommit(git, request.sha);
    if (request.path === '' || request.path.endsWith('/')) throw new NotFoundError('path');
    // From the commit's tree: the commit was just read.
    const entry = await git.findEntry(commit.tree, request.path);
    if (entry?.kind !== 'blob') throw new NotFoundError('path');
    return readBlobAt(git, { commit, path: request.path, entry });
  }

  /**
   * `GET /readme/{sha}` (docs/radicle-httpd.md §5.18): the first candidate that is a file in the root tree.
   * @throws NotFoundError; NotFoundError when none exists; TooLargeError above 4 MiB
   */
  async getReadme(ridText: string, sha: Oid): Promise<Blob> {
    const { git } = await this.access.openPublic(ridText);
    const commit = await this.content.requireCommit(git, sha);
    const root = new Map((await git.readTree(commit.tree))?.map((entry) => [entry.name, entry]));
    for (const name of README_CANDIDATES) {
      const entry = root.get(name);
      if (entry?.kind === 'blob') return readBlobAt(git, { commit, path: name, entry });
    }
    throw new NotFoundError('path');
  }
}

/** Size check from the object header (the content of a too large blob is never read), then content and last commit. */
async function readBlobAt(git: GitRepository, at: { commit: GitCommit; path: string; entry: TreeEntry }): Promise<Blob> {
  const info = await git.readObjectInfo(at.entry.oid);
  if (info === null) throw new Error(`blob ${at.entry.oid} is missing from the repository`);
  if (info.size > BLOB_MAX_BYTES) throw new TooLargeError('blob too large');
  const [bytes, lastOid] = await Promise.all([git.readBlob(at.entry.oid), git.lastCommitTouching({ from: at.commit.oid, path: at.path })]);
  if (bytes === null) throw new Error(`blob ${at.entry.oid} could not be read`);
  const last = lastOid === null || lastOid === at.commit.oid ? at.commit : ((await git.readCommit(lastOid)) ?? at.commit);
  return toBlob({ path: at.path, bytes, lastCommit: toCommit(last) });
}
