import { Injectable } from '@nestjs/common';
import {
  DIFF_FILES_BLOB_MAX_BYTES,
  DIFF_FILES_TOTAL_MAX_BYTES,
  DIFF_PATCH_MAX_BYTES,
  listDiffBlobs,
  parseGitPatch,
  parseNumstat,
  resolveCutFiles,
  type FileDiff,
  type NumstatRecord,
} from '@forge-httpd/diff';
import type { GitCommit, GitRepository, Oid } from '@forge-httpd/storage';
import { toBlobContent } from './blob-content.mapper.js';
import type { DiffBlobData } from './diff.mapper.js';
import { CommitNotFoundError } from './errors.js';

/** A bounded diff: parsed files and the blobs that fit in the `files` map. */
export interface LoadedDiff {
  files: FileDiff[];
  blobs: DiffBlobData[];
}

/** Git reads shared by the commit, diff, tree and blob routes. */
@Injectable()
export class GitContentService {
  /**
   * Reads a commit.
   * @throws CommitNotFoundError when the id names no commit (absent or another object type)
   */
  async requireCommit(git: GitRepository, oid: Oid): Promise<GitCommit> {
    const commit = await git.readCommit(oid);
    if (commit === null) throw new CommitNotFoundError();
    return commit;
  }

  /**
   * Diffs two commits (git's own diff, `-M -C`) within the bounds of libs/diff/README.md: at
   * most 8 MiB of git output (files past it get git's numstat counts, no hunks and
   * `tooLarge: true`), blobs of at most 1 MiB each and 8 MiB in total in the `files` map (by
   * oid order; the rest left out).
   * @param git - repository
   * @param range - old commit (null: the empty tree) and new commit
   */
  async loadDiff(git: GitRepository, range: { from: Oid | null; to: Oid }): Promise<LoadedDiff> {
    const { patch, truncated } = await git.diffPatch({ ...range, maxBytes: DIFF_PATCH_MAX_BYTES });
    const parsed = parseGitPatch(patch, { truncated });
    const files = truncated ? resolveCutFiles(parsed, await this.readNumstat(git, range)) : parsed;
    return { files, blobs: await this.loadBlobs(git, listDiffBlobs(files) as Oid[]) };
  }

  private async readNumstat(git: GitRepository, range: { from: Oid | null; to: Oid }): Promise<NumstatRecord[]> {
    // Only cut diffs pay for this second pass; its output is a few bytes per file.
    const { patch } = await git.diffNumstat({ ...range, maxBytes: DIFF_PATCH_MAX_BYTES });
    return parseNumstat(patch);
  }

  private async loadBlobs(git: GitRepository, oids: readonly Oid[]): Promise<DiffBlobData[]> {
    const blobs: DiffBlobData[] = [];
    let budget = DIFF_FILES_TOTAL_MAX_BYTES;
    for (const oid of oids) {
      // Sizes come from the object header, so a skipped blob is never loaded.
      const info = await git.readObjectInfo(oid);
      if (info === null || info.type !== 'blob' || info.size > DIFF_FILES_BLOB_MAX_BYTES) continue;
      if (info.size > budget) break;
      const bytes = await git.readBlob(oid);
      if (bytes === null) continue;
      budget -= info.size;
      blobs.push({ id: oid, ...toBlobContent(bytes) });
    }
    return blobs;
  }
}
