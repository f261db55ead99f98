import { type Readable, Transform } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { Injectable } from '@nestjs/common';
import { ForbiddenError, InvalidInputError, parseNid, TooLargeError } from '@forge-httpd/identity';
import { refList, type StoredRepository, uploadPack } from '@forge-httpd/storage';
import type { BinaryAnswer } from '../platform/binary-answer.js';
import { GitProcesses } from '../platform/git-processes.service.js';
import { RepositoryAccess } from '../repository-access/repository-access.service.js';
import { RepositoryAliases } from '../repository-access/repository-aliases.js';
import { parseGitProtocolVersion } from './git-protocol.js';
import { repositoryNotFound } from '../platform/repository-not-found.js';

/** Which repository (and peer namespace) a git URL names, as written in the path. */
export interface GitTarget {
  /** `{rid}` or `{rid}.git`, with or without `rad:`, or a repository alias in place of the RID. */
  readonly repo: string;
  /** `{nid}` of a peer's namespace, when the URL has one. */
  readonly nid?: string;
}

/** The request headers the git routes read. */
export interface GitRequestHeaders {
  readonly 'git-protocol'?: string | string[];
  readonly 'content-type'?: string;
  readonly 'content-encoding'?: string;
  readonly 'content-length'?: string;
}

/**
 * Largest upload-pack request body read, counted after decompression. A fetch negotiation is
 * want/have lines of ~50 bytes (stateless clients resend earlier rounds), so even tens of
 * thousands of refs stay far below it; without a cap a client could stream a gzip bomb into
 * git for the whole request timeout.
 */
const UPLOAD_PACK_BODY_LIMIT = 16 * 1024 * 1024;

/** As `git http-backend` sends them: protocol answers are never cached. */
const NO_CACHE = {
  expires: 'Fri, 01 Jan 1980 00:00:00 GMT',
  pragma: 'no-cache',
  'cache-control': 'no-cache, max-age=0, must-revalidate',
};

/**
 * Read-only git over smart HTTP (gitprotocol-http(5)): `info/refs` and `git-upload-pack`
 * answered by git's own upload-pack, for a repository's top-level refs or one peer's
 * namespace. Private repositories and unknown namespaces are absent; pushes are refused.
 */
@Injectable()
export class GitHttpService {
  constructor(
    private readonly access: RepositoryAccess,
    private readonly processes: GitProcesses,
    private readonly aliases: RepositoryAliases,
  ) {}

  /**
   * `GET /{rid}.git[/{nid}]/info/refs?service=git-upload-pack`, or without `service` the dumb
   * protocol's ref list (`{oid}\t{ref}` lines, as `git http-backend` answers).
   * @throws NotFoundError (404) for a malformed, absent or private repository or namespace,
   *   or an unknown service; ForbiddenError (403) for git-receive-pack; BusyError (503)
   */
  async advertise(target: GitTarget, request: { service: unknown; headers: GitRequestHeaders; head: boolean }): Promise<BinaryAnswer> {
    const { gitDir, namespace } = await this.open(target);
    if (request.service === 'git-receive-pack') throw pushRefused();
    if (request.service === undefined) {
      const headers = { 'content-type': 'text/plain', ...NO_CACHE };
      return { headers, body: request.head ? null : refList(this.processes.pool, { gitDir, namespace }) };
    }
    if (request.service !== 'git-upload-pack') throw repositoryNotFound();
    const headers = { 'content-type': 'application/x-git-upload-pack-advertisement', ...NO_CACHE };
    if (request.head) return { headers, body: null };
    const protocolVersion = parseGitProtocolVersion(request.headers['git-protocol']);
    return { headers, body: uploadPack(this.processes.pool, { gitDir, namespace, mode: 'advertise', protocolVersion }) };
  }

  /**
   * `POST /{rid}.git[/{nid}]/git-upload-pack`: one fetch negotiation or pack, streamed.
   * @throws NotFoundError (404); InvalidInputError (400) for a content encoding other
   *   than gzip or identity (and as the stream's error for a body that does not gunzip);
   *   BusyError (503)
   */
  async serve(target: GitTarget, request: { body: Readable; headers: GitRequestHeaders }): Promise<BinaryAnswer> {
    const { gitDir, namespace } = await this.open(target);
    if (Number(request.headers['content-length'] ?? 0) > UPLOAD_PACK_BODY_LIMIT) throw bodyTooLarge();
    const decoded = decodedBody(request.body, request.headers['content-encoding']);
    const body = decoded.pipe(new ByteLimit(UPLOAD_PACK_BODY_LIMIT));
    const protocolVersion = parseGitProtocolVersion(request.headers['git-protocol']);
    const output = uploadPack(this.processes.pool, { gitDir, namespace, mode: 'serve', protocolVersion, body });
    // A body that does not decompress is the client's fault (400), not a failed git (500).
    if (decoded !== request.body) decoded.once('error', () => output.destroy(new InvalidInputError('Invalid request body: expected gzip data')));
    body.once('error', (error) => output.destroy(error));
    return { headers: { 'content-type': 'application/x-git-upload-pack-result', ...NO_CACHE }, body: output };
  }

  /**
   * `POST /{rid}.git[/{nid}]/git-receive-pack`: this server is read-only.
   * @throws NotFoundError (404) as for reads, so a private repository stays invisible; else ForbiddenError (403)
   */
  async refusePush(target: GitTarget): Promise<never> {
    await this.open(target);
    throw pushRefused();
  }

  /** The public repository's git directory and the parsed namespace; anything else is 404. */
  private async open(target: GitTarget): Promise<{ gitDir: string; namespace?: string }> {
    const rid = this.aliases.resolve(target.repo.endsWith('.git') ? target.repo.slice(0, -4) : target.repo);
    if (rid === null) throw repositoryNotFound();
    const repository = await this.access.openPublicRid(rid);
    if (target.nid === undefined) return { gitDir: repository.git.gitDir };
    return { gitDir: repository.git.gitDir, namespace: await requireRemote(repository, target.nid) };
  }
}

/** A push (git-receive-pack): this server is read-only; answered 403. */
function pushRefused(): ForbiddenError {
  return new ForbiddenError('pushes are not accepted');
}

/** A request body above its cap (after decompression); answered 413 with the JSON error body. */
function bodyTooLarge(): TooLargeError {
  return new TooLargeError('request body over the size limit');
}

async function requireRemote(repository: StoredRepository, nidText: string): Promise<string> {
  const nid = parseOrNull(() => parseNid(nidText));
  if (nid === null || (await repository.remote(nid)) === null) throw repositoryNotFound();
  return nid;
}

function parseOrNull<T>(parse: () => T): T | null {
  try {
    return parse();
  } catch {
    return null;
  }
}

/** git sends large request bodies gzip-compressed (`Content-Encoding: gzip`, remote-curl.c). */
function decodedBody(body: Readable, encoding: string | undefined): Readable {
  const coding = encoding?.trim().toLowerCase();
  if (coding === undefined || coding === '' || coding === 'identity') return body;
  if (coding !== 'gzip' && coding !== 'x-gzip') throw new InvalidInputError('Invalid content-encoding: expected gzip or identity');
  const gunzip = createGunzip();
  body.on('error', (error) => gunzip.destroy(error));
  return body.pipe(gunzip);
}

/** Passes bytes through until `limit`, then fails with {@link bodyTooLarge}. */
class ByteLimit extends Transform {
  private seen = 0;

  constructor(private readonly limit: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null, data?: Buffer) => void): void {
    this.seen += chunk.length;
    if (this.seen > this.limit) done(bodyTooLarge());
    else done(null, chunk);
  }
}
