import { InvalidInputError, NotFoundError } from '@forge-httpd/identity';
import { Injectable } from '@nestjs/common';
import type { GrepResponse } from '@forge-httpd/api-types';
import type { Oid } from '@forge-httpd/storage';
import { GitContentService } from '../git-content/git-content.service.js';
import { RepositoryAccess } from '../repository-access/repository-access.service.js';

/** Query of `GET /repos/{rid}/grep/{sha}`. */
export interface GrepQuery {
  q?: string;
  path?: string;
  ignoreCase?: 'true' | 'false';
}

/** Matches listed; one more marks the answer truncated (docs/api.md "Beyond radicle-httpd"). */
const MAX_MATCHES = 1000;
/** Characters of a matching line shown. */
const MAX_LINE_CHARS = 1000;
/** git's search is stopped after this long: 503 with retry-after (docs/operating.md "Limits and timeouts"). */
const GREP_TIMEOUT_MS = 10_000;

/** Code search: the lines of the text files at a commit that hold a fixed string. */
@Injectable()
export class GrepService {
  constructor(
    private readonly access: RepositoryAccess,
    private readonly content: GitContentService,
  ) {}

  /** `GET /grep/{sha}?q=…&path=…&ignoreCase=…`: `git grep -F -n -I` at `sha`, bounded. */
  async grep(ridText: string, sha: Oid, query: GrepQuery): Promise<GrepResponse> {
    if (query.q === undefined) throw new InvalidInputError('Invalid q: expected 1 to 256 characters, without NUL');
    const { git } = await this.access.openPublic(ridText);
    await this.content.requireCommit(git, sha);
    const path = query.path ?? '';
    // A file or a folder at `sha`: anything else (absent, `..`, a malformed path) is not found.
    if (path !== '' && (await git.findEntry(sha, path)) === null) throw new NotFoundError('path');
    const { matches, truncated } = await git.grep({
      commit: sha,
      text: query.q,
      path,
      ignoreCase: query.ignoreCase === 'true',
      maxMatches: MAX_MATCHES,
      maxLineChars: MAX_LINE_CHARS,
      timeoutMs: GREP_TIMEOUT_MS,
    });
    return { matches, truncated };
  }
}
