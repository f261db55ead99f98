import { NotFoundError } from '@forge-httpd/identity';
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
import type { GitCommit, GitObjectInfo, GitRepository, Oid, ReadOptions } from '@forge-httpd/storage';
import { toBlobContent } from './blob-content.mapper.js';
import type { DiffBlobData } from './diff.mapper.js';
import { GitContentCache, type PreparedBlob } from './git-content-cache.js';

/** A bounded diff: parsed files and the blobs that fit in the `files` map. */
export interface LoadedDiff {
  files: FileDiff[];
  blobs: DiffBlobData[];
}

const BULK = { bulk: true } as const;

/** Object headers requested at once while choosing the blobs of a diff's `files` map. */
const BLOB_HEADER_BATCH = 256;

/** Git reads shared by the commit, diff, tree and blob routes. */
@Injectable()
export class GitContentService {
  constructor(private readonly cache: GitContentCache) {}

  /**
   * Reads a commit.
   * @param options - `sequential` when it is the first step of a walk that reads it again
   * @throws NotFoundError when the id names no commit (absent or another object type)
   */
  async requireCommit(git: GitRepository, oid: Oid, options?: ReadOptions): Promise<GitCommit> {
    const commit = await git.readCommit(oid, options);
    if (commit === null) throw new NotFoundError('commit');
    return commit;
  }

  /**
   * Diffs two commits (git's own diff, `-M -C`) within the bounds of libs/diff/README.md: at
   * most 8 MiB of git output (files past it get git's numstat counts, no hunks and
   * `tooLarge: true`), blobs of at most 1 MiB each and 8 MiB in total in the `files` map (by
   * oid order; the rest left out).
   * @param git - repository
   * @param range - old commit (null: the empty tree) and new commit
   * @param onQueued - told once the diff needs no more turns of this thread (see `DiffPatchOptions.onQueued`)
   */
  async loadDiff(git: GitRepository, range: { from: Oid | null; to: Oid }, onQueued?: () => void): Promise<LoadedDiff> {
    // The blobs git's raw records name are read while git still writes the patches (the
    // records come first); used when the parsed diff names exactly those blobs, as it does
    // unless the output was cut. On a big commit reading the blobs costs nearly as much as the
    // diff itself, so overlapping the two shortens the page.
    const early: { blobs?: { oids: Oid[]; read: Promise<DiffBlobData[]> } } = {};
    const onBlobIds = (ids: readonly Oid[]): void => {
      const oids = [...ids].sort();
      const read = this.loadBlobs(git, oids);
      // Awaited below when used; a read nobody uses must not be an unhandled rejection.
      read.catch(() => undefined);
      early.blobs = { oids, read };
    };
    const patchRead = git.diffPatch({ ...range, maxBytes: DIFF_PATCH_MAX_BYTES, onBlobIds, onQueued });
    // The diff's blobs are read together (bulk: through cat-file, on git's core, while this
    // thread parses). On a repository's first page cat-file is not running yet: its start
    // overlaps git's diff instead of following it.
    const catFileStarted = git.startBulkReads();
    const { patch, truncated } = await patchRead;
    await catFileStarted;
    const parsed = parseGitPatch(patch, { truncated });
    const files = truncated ? resolveCutFiles(parsed, await this.readNumstat(git, range)) : parsed;
    const oids = listDiffBlobs(files) as Oid[];
    const blobs = early.blobs !== undefined && sameIds(early.blobs.oids, oids) ? early.blobs.read : this.loadBlobs(git, oids);
    return { files, blobs: await blobs };
  }

  private async readNumstat(git: GitRepository, range: { from: Oid | null; to: Oid }): Promise<NumstatRecord[]> {
    // Only cut diffs pay for this second pass; its output is a few bytes per file.
    const { patch } = await git.diffNumstat({ ...range, maxBytes: DIFF_PATCH_MAX_BYTES });
    return parseNumstat(patch);
  }

  private async loadBlobs(git: GitRepository, oids: readonly Oid[]): Promise<DiffBlobData[]> {
    // Which blobs fit is decided from the sizes alone (a skipped blob is never loaded): those
    // of blobs prepared before, and object headers for the rest. Headers and then contents are
    // requested together as bulk reads, pipelined through the one cat-file process instead of
    // one round trip after another.
    const key = (oid: Oid): string => GitContentCache.diffBlobKey(git.gitDir, oid);
    const chosen: Array<{ oid: Oid; prepared: PreparedBlob | undefined }> = [];
    let budget = DIFF_FILES_TOTAL_MAX_BYTES;
    choose: for (let start = 0; start < oids.length; start += BLOB_HEADER_BATCH) {
      const batch = oids.slice(start, start + BLOB_HEADER_BATCH).map((oid) => ({ oid, prepared: this.cache.diffBlobs.get(key(oid)) }));
      const sizes = await Promise.all(
        batch.map(({ oid, prepared }) => (prepared === undefined ? git.readObjectInfo(oid, BULK).then(blobSize) : Promise.resolve(prepared.size))),
      );
      for (const [index, size] of sizes.entries()) {
        if (size === null || size > DIFF_FILES_BLOB_MAX_BYTES) continue;
        if (size > budget) break choose;
        budget -= size;
        chosen.push(batch[index] as (typeof batch)[number]);
      }
    }
    const blobs = await Promise.all(
      chosen.map(({ oid, prepared }) => (prepared === undefined ? this.readPrepared(git, oid, key(oid)) : Promise.resolve(prepared))),
    );
    return chosen.flatMap(({ oid }, index) => {
      const blob = blobs[index];
      return blob === null || blob === undefined ? [] : [{ id: oid, binary: blob.binary, content: blob.content }];
    });
  }

  /**
   * Reads a blob and escapes it for JSON at once: the blobs of a diff usually arrive while git
   * still writes the patch, and this thread would wait for it anyway (platform/utf8-json.ts).
   */
  private async readPrepared(git: GitRepository, oid: Oid, key: string): Promise<PreparedBlob | null> {
    const bytes = await git.readBlob(oid, BULK);
    if (bytes === null) return null;
    const { binary, content } = toBlobContent(bytes);
    const prepared = { size: bytes.length, binary, content: typeof content === 'string' ? content : content.prepare() };
    this.cache.diffBlobs.set(key, prepared);
    return prepared;
  }
}

/** A blob's size from its object header; null when it is absent or not a blob. */
function blobSize(info: GitObjectInfo | null): number | null {
  return info === null || info.type !== 'blob' ? null : info.size;
}

function sameIds(a: readonly Oid[], b: readonly Oid[]): boolean {
  return a.length === b.length && a.every((oid, index) => oid === b[index]);
}
