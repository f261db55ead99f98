import { NotFoundError, TooLargeError } from '@forge-httpd/identity';
import { Injectable } from '@nestjs/common';
import type { GitRepository, Oid } from '@forge-httpd/storage';
import { GitContentService } from '../git-content/git-content.service.js';
import type { BinaryAnswer } from '../platform/binary-answer.js';
import { RepositoryAccess } from '../repository-access/repository-access.service.js';
import { rawContentType } from './raw-content-type.js';

/** Largest raw file served (radicle-httpd `raw.rs`: 10 MiB); larger ones answer 413. */
const RAW_MAX_BYTES = 10_485_760;

/** Commit- and blob-addressed bytes never change. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Served bytes are the repository's, not the server's: a stored HTML or SVG file must not run
 * script in this origin (sandboxed, nothing loads) nor be sniffed into another type.
 */
const UNTRUSTED_CONTENT = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  'x-content-type-options': 'nosniff',
};

/** Raw files by commit and path, at the canonical head, and blobs by id (radicle-httpd `raw.rs`). */
@Injectable()
export class RawService {
  constructor(
    private readonly access: RepositoryAccess,
    private readonly content: GitContentService,
  ) {}

  /**
   * `GET /raw/{rid}/{sha}/{path}`.
   * @throws InvalidInputError (400); NotFoundError (404: repository, commit or path);
   *   TooLargeError (413)
   */
  async fileAtCommit(ridText: string, at: { sha: Oid; path: string }): Promise<BinaryAnswer> {
    const { git } = await this.access.openPublic(ridText);
    await this.content.requireCommit(git, at.sha);
    return fileAt(git, { ...at, cacheControl: IMMUTABLE });
  }

  /**
   * `GET /raw/{rid}/head/{path}`: at the repository head (`meta.head`); not cacheable for long.
   * @throws as {@link fileAtCommit}
   */
  async fileAtHead(ridText: string, path: string): Promise<BinaryAnswer> {
    const repository = await this.access.openPublic(ridText);
    const head = await repository.head();
    return fileAt(repository.git, { sha: head.oid, path, cacheControl: null });
  }

  /**
   * `GET /raw/{rid}/blobs/{oid}`: any blob of the repository by id.
   * @throws NotFoundError (404: repository, or path when no such blob); TooLargeError (413)
   */
  async blob(ridText: string, oid: Oid): Promise<BinaryAnswer> {
    const { git } = await this.access.openPublic(ridText);
    return blobAnswer(git, { oid, name: null, cacheControl: IMMUTABLE });
  }
}

async function fileAt(git: GitRepository, at: { sha: Oid; path: string; cacheControl: string | null }): Promise<BinaryAnswer> {
  if (at.path === '' || at.path.endsWith('/')) throw new NotFoundError('path');
  const entry = await git.findEntry(at.sha, at.path);
  if (entry?.kind !== 'blob') throw new NotFoundError('path');
  return blobAnswer(git, { oid: entry.oid, name: at.path.slice(at.path.lastIndexOf('/') + 1), cacheControl: at.cacheControl });
}

/** The size is checked from the object header, so an oversized blob's content is never read. */
async function blobAnswer(git: GitRepository, blob: { oid: Oid; name: string | null; cacheControl: string | null }): Promise<BinaryAnswer> {
  const info = await git.readObjectInfo(blob.oid);
  if (info?.type !== 'blob') throw new NotFoundError('path');
  if (info.size > RAW_MAX_BYTES) throw new TooLargeError('raw file over the size limit');
  const bytes = await git.readBlob(blob.oid);
  if (bytes === null) throw new Error(`blob ${blob.oid} could not be read`);
  const headers: Record<string, string> = { 'content-type': rawContentType(blob.name, bytes), ...UNTRUSTED_CONTENT };
  if (blob.cacheControl !== null) headers['cache-control'] = blob.cacheControl;
  // The blob id names exactly these bytes; the content type follows from them and the URL.
  return { headers, body: bytes, etag: `"${blob.oid}"` };
}
