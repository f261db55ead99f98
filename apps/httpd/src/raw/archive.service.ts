import { NotFoundError } from '@forge-httpd/identity';
import { Injectable } from '@nestjs/common';
import { archiveCommit, type GitRepository, type Oid, parseOid, resolveStoredRef, type StoredRepository } from '@forge-httpd/storage';
import type { BinaryAnswer } from '../platform/binary-answer.js';
import { GitProcesses } from '../platform/git-processes.service.js';
import { RepositoryAccess } from '../repository-access/repository-access.service.js';
import { type ArchiveKind, DEFAULT_ARCHIVE_KIND, detectArchiveKind } from './archive-format.js';

/** How an archive is asked for: the commit or ref text of the URL, `?prefix`, and HEAD. */
export interface ArchiveRequest {
  /** `false` (from `?prefix=false`): entries at the archive's root. */
  readonly prefix?: 'true' | 'false';
  /** True for HEAD: headers only, `git archive` is not run. */
  readonly head: boolean;
}

/**
 * Where libgit2's short-name lookup (used by radicle-httpd) looks for a ref, in its order;
 * every candidate is a full name, validated before it reaches git.
 */
const SHORT_NAME_RULES = [
  (n: string) => n,
  (n: string) => `refs/${n}`,
  (n: string) => `refs/tags/${n}`,
  (n: string) => `refs/heads/${n}`,
  (n: string) => `refs/remotes/${n}`,
  (n: string) => `refs/remotes/${n}/HEAD`,
];

/** Archives of a commit by `git archive`, streamed (radicle-httpd `raw.rs`). */
@Injectable()
export class ArchiveService {
  constructor(
    private readonly access: RepositoryAccess,
    private readonly processes: GitProcesses,
  ) {}

  /**
   * `GET /raw/{rid}/{sha}.tar.gz|.tar|.zip`: entries under `<name>-<sha>/`.
   * @throws InvalidInputError (400); NotFoundError (404: repository or commit)
   *   (also for a missing or unknown suffix); BusyError (503)
   */
  async byCommit(ridText: string, shaWithSuffix: string, request: ArchiveRequest): Promise<BinaryAnswer> {
    const repository = await this.access.openPublic(ridText);
    const { name, kind } = detectArchiveKind(shaWithSuffix);
    if (kind === null) throw new NotFoundError('commit');
    const commit = await requireCommit(repository.git, parseOid(name, 'sha'));
    return this.answer(repository, { commit, label: commit, kind, ...request });
  }

  /**
   * `GET /raw/{rid}/archive/{refname}[.tar.gz|.tar|.zip]` (default tar.gz): the ref found the
   * way `git` resolves a short name; entries under `<name>-<refname, / as ->/`.
   * @throws NotFoundError (404: repository, or commit when no ref resolves to one); BusyError (503)
   */
  async byRef(ridText: string, refWithSuffix: string, request: ArchiveRequest): Promise<BinaryAnswer> {
    const repository = await this.access.openPublic(ridText);
    const { name, kind } = detectArchiveKind(refWithSuffix);
    const commit = await resolveShortName(repository.git, name);
    return this.answer(repository, { commit, label: name.replaceAll('/', '-'), kind: kind ?? DEFAULT_ARCHIVE_KIND, ...request });
  }

  private async answer(repository: StoredRepository, archive: ArchiveRequest & { commit: Oid; label: string; kind: ArchiveKind }): Promise<BinaryAnswer> {
    const project = await repository.project();
    const prefix = safeFileName(`${project?.name ?? repository.rid.slice('rad:'.length)}-${archive.label}`);
    const headers = {
      'content-type': archive.kind.mediaType,
      'content-disposition': `attachment; filename="${prefix}${archive.kind.extension}"`,
    };
    if (archive.head) return { headers, body: null };
    const body = archiveCommit(this.processes.pool, {
      gitDir: repository.git.gitDir,
      commit: archive.commit,
      format: archive.kind.format,
      prefix: archive.prefix === 'false' ? null : prefix,
    });
    return { headers, body };
  }
}

async function requireCommit(git: GitRepository, oid: Oid): Promise<Oid> {
  const commit = await git.peelToCommit(oid);
  if (commit === null) throw new NotFoundError('commit');
  return commit;
}

async function resolveShortName(git: GitRepository, name: string): Promise<Oid> {
  for (const rule of SHORT_NAME_RULES) {
    const oid = await resolveStoredRef(git, rule(name));
    if (oid !== null) return requireCommit(git, oid);
  }
  throw new NotFoundError('commit');
}

/** One path component and a quoted-string-safe file name: ASCII letters, digits, `._+-`. */
function safeFileName(text: string): string {
  const safe = text.replace(/[^A-Za-z0-9._+-]/g, '-');
  return safe.startsWith('.') ? `_${safe.slice(1)}` : safe;
}
