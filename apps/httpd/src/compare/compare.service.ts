import { InvalidInputError, NotFoundError } from '@forge-httpd/identity';
import { Injectable } from '@nestjs/common';
import type { CompareResponse } from '@forge-httpd/api-types';
import { type Oid, parseOid } from '@forge-httpd/storage';
import { GitContentService } from '../git-content/git-content.service.js';
import { toCommit } from '../git-content/commit.mapper.js';
import { toDiff, toDiffFiles } from '../git-content/diff.mapper.js';
import { RepositoryAccess } from '../repository-access/repository-access.service.js';

/** Commits listed; past it `truncated` (docs/api.md "Beyond radicle-httpd"). */
const MAX_COMPARE_COMMITS = 250;

/** The two sides of `{base}...{head}`, as written. */
export interface CompareRange {
  readonly base: string;
  readonly head: string;
}

/**
 * Splits `{base}...{head}`. A ref name never holds `..` (git's rule), so the first `...` is
 * the separator.
 * @throws InvalidInputError when there is no `...` or a side is empty
 */
export function parseCompareRange(text: string): CompareRange {
  const at = text.indexOf('...');
  const base = at < 0 ? '' : text.slice(0, at);
  const head = at < 0 ? '' : text.slice(at + 3);
  if (base === '' || head === '') throw new InvalidInputError('Invalid range: expected {base}...{head}');
  return { base, head };
}

/** A side written as a commit id (40 hex digits, any case) rather than a name. */
function isCommitId(side: string): boolean {
  return /^[0-9a-fA-F]{40}$/.test(side);
}

/** Whether both sides are commit ids: the answer is then immutable. */
export function isCommitRange(range: CompareRange): boolean {
  return isCommitId(range.base) && isCommitId(range.head);
}

/** Two commits compared: what each alone reaches, the ahead commits, the diff from their merge base. */
@Injectable()
export class CompareService {
  constructor(
    private readonly access: RepositoryAccess,
    private readonly content: GitContentService,
  ) {}

  /** `GET /compare/{base}...{head}`. */
  async compare(ridText: string, range: CompareRange): Promise<CompareResponse> {
    const repository = await this.access.openPublic(ridText);
    const { git } = repository;
    const names = isCommitRange(range) ? null : await repository.canonicalRefs();
    const [base, head] = [resolveSide(range.base, names), resolveSide(range.head, names)];
    await Promise.all([this.content.requireCommit(git, base), this.content.requireCommit(git, head)]);
    const [mergeBase, counts, commits] = await Promise.all([
      git.mergeBase(base, head),
      git.countAheadBehind(base, head),
      git.walkCommits({ from: head, exclude: [base], maxCount: MAX_COMPARE_COMMITS }),
    ]);
    const diff = await this.content.loadDiff(git, { from: mergeBase ?? base, to: head });
    return {
      base,
      head,
      mergeBase,
      ahead: counts.ahead,
      behind: counts.behind,
      commits: commits.map(toCommit),
      truncated: counts.ahead > commits.length,
      diff: toDiff(diff.files, 'typeFirst'),
      files: toDiffFiles(diff.blobs),
    };
  }
}

/** The canonical refs of a repository, as `/repos/{rid}` lists them. */
interface CanonicalNames {
  readonly tags: Readonly<Record<string, { readonly commit: Oid }>>;
  readonly refs: Readonly<Record<string, Oid>>;
}

/**
 * A side of the range: a commit id (any case) as it is, else a canonical tag (`refs/tags/<name>`,
 * the commit it points to), else a canonical branch (`refs/heads/<name>`), as git's own order.
 * @throws NotFoundError when it names none of them
 */
function resolveSide(side: string, names: CanonicalNames | null): Oid {
  if (isCommitId(side)) return parseOid(side);
  const tag = names?.tags[`refs/tags/${side}`];
  if (tag !== undefined) return tag.commit;
  const branch = names?.refs[`refs/heads/${side}`];
  if (branch !== undefined) return branch;
  throw new NotFoundError('revision');
}
