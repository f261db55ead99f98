/**
 * History pages filtered by path, author or message: `rev-list` names the commits that touch
 * the path (git's default history simplification) and narrows the rest where its own match is
 * sure to keep every wanted commit; the author and message are then checked here, on the
 * commits as the API shows them.
 */
import { BusyError, InvalidInputError, ProcessFailedError } from '@forge-httpd/identity';
import type { GitCommit } from '../format/git-objects.js';
import { splitTreePath } from '../format/tree-path.js';
import type { GitObjectReads, WalkCommitsOptions } from '../git-repository.js';
import { checkOid, isOid, type Oid } from '../objects/oid.js';
import type { GitTarget } from '../processes/git-processes.js';
import { streamGitLines } from './stream-git-lines.js';

/** Commits read and checked at a time. */
const CHECK_CHUNK = 256;
/** A filtered walk ends with a BusyError past this long (git's part and the checks here). */
const FILTERED_WALK_MS = 30_000;

/** Whether a character's lower case holds an ASCII letter it is not an ASCII case of (İ, K). */
function foldsOntoAscii(char: string): boolean {
  return char === '\u0130' || char === '\u212A';
}

/**
 * Case folding of the author and message filters: each character to its Unicode lower case,
 * one by one (so a needle folds as the same text inside a name or message does: no final
 * sigma), except that a character is never folded onto an ASCII letter (so an ASCII filter
 * matches exactly where git's ASCII-only `-i` does, and git can narrow the walk for it).
 */
export function foldCase(text: string): string {
  if (/^[\x00-\x7f]*$/.test(text)) return text.toLowerCase();
  let folded = '';
  for (const char of text) folded += foldsOntoAscii(char) ? char : char.toLowerCase();
  return folded;
}

/** Whether a walk has any of the path, author and message filters. */
export function isFilteredWalk(options: WalkCommitsOptions): boolean {
  return options.path !== undefined || options.author !== undefined || options.message !== undefined;
}

/** Whether `commit` passes the author and message filters of `options`. */
function passes(commit: GitCommit, author: string | undefined, message: string | undefined): boolean {
  if (author !== undefined && !foldCase(commit.author.name).includes(author) && !foldCase(commit.author.email).includes(author)) return false;
  return message === undefined || foldCase(commit.message).includes(message);
}

/** Printable ASCII: a filter git's `-F -i` matches exactly as {@link foldCase} does, within one line. */
function gitCanNarrow(text: string): boolean {
  return /^[\x20-\x7e]+$/.test(text);
}

/**
 * The ids of the commits of a filtered walk, newest first in rev-list's order, after
 * `skip` and up to `maxCount`.
 * @param at - repository, and the processes git runs under
 * @param objects - commit reads, for the author and message checks
 * @param options - start, filters, committer-time bounds and the page window
 * @throws InvalidInputError for a malformed id or path; BusyError when the walk runs out of time
 */
export async function filteredCommitOids(at: GitTarget, objects: Pick<GitObjectReads, 'readCommits'>, options: WalkCommitsOptions): Promise<Oid[]> {
  const deadline = Date.now() + FILTERED_WALK_MS;
  const wanted = (options.skip ?? 0) + (options.maxCount ?? Number.POSITIVE_INFINITY);
  const author = options.author === undefined ? undefined : foldCase(options.author);
  const message = options.message === undefined ? undefined : foldCase(options.message);
  const narrow = narrowing(options);
  const matched: Oid[] = [];
  // When git narrows every filter (nearly all it lists is wanted), it lists a page's worth at a
  // time, four times more at each round; otherwise the whole history once, checked here.
  const allNarrowed = narrow.complete || (author === undefined && message === undefined);
  let window = { skip: 0, count: allNarrowed ? Math.max(wanted, MIN_ROUND) : Number.POSITIVE_INFINITY };
  while (matched.length < wanted && wanted > 0) {
    const { oids, listed } = await listCandidates(at, options, narrow.args, window);
    // git's list is the answer when its match is exactly this one: nothing to read here.
    const filters = narrow.exact ? { author: undefined, message: undefined } : { author, message };
    await check(objects, oids, { ...filters, deadline, wanted }, matched);
    if (listed < window.count) break;
    window = { skip: window.skip + listed, count: window.count * 4 };
  }
  return matched.slice(options.skip ?? 0, wanted);
}

/** Fewest commits git lists in a round of a narrowed walk. */
const MIN_ROUND = 64;

/** Reads `candidates` a chunk at a time and adds those passing the checks to `matched`, up to `wanted`. */
async function check(
  objects: Pick<GitObjectReads, 'readCommits'>,
  candidates: readonly Oid[],
  filters: { author: string | undefined; message: string | undefined; deadline: number; wanted: number },
  matched: Oid[],
): Promise<void> {
  if (filters.author === undefined && filters.message === undefined) {
    matched.push(...candidates.slice(0, filters.wanted - matched.length));
    return;
  }
  for (let start = 0; start < candidates.length && matched.length < filters.wanted; start += CHECK_CHUNK) {
    if (Date.now() > filters.deadline) throw tooLong();
    const commits = await objects.readCommits(candidates.slice(start, start + CHECK_CHUNK));
    for (const commit of commits) {
      if (commit === null) throw new ProcessFailedError('a commit listed by rev-list is unreadable');
      if (passes(commit, filters.author, filters.message)) matched.push(commit.oid);
      if (matched.length >= filters.wanted) return;
    }
  }
}

function tooLong(): BusyError {
  return new BusyError('history filter took too long');
}

/**
 * `rev-list` with the path, git's narrowing and a window of its output (`--skip`, `--max-count`),
 * less the commits outside the time bounds.
 * @returns the ids kept, and how many git listed
 */
async function listCandidates(
  at: GitTarget,
  options: WalkCommitsOptions,
  narrow: readonly string[],
  window: { skip: number; count: number },
): Promise<{ oids: Oid[]; listed: number }> {
  const { since, until } = options;
  const limits = [`--skip=${window.skip}`, ...(Number.isFinite(window.count) ? [`--max-count=${window.count}`] : [])];
  const revision = ['--end-of-options', checkOid(options.from), ...pathArguments(options.path)];
  const args = ['--literal-pathspecs', 'rev-list', '--timestamp', ...limits, ...narrow, ...revision];
  const oids: Oid[] = [];
  let listed = 0;
  await streamGitLines({ ...at, args, timeoutMs: FILTERED_WALK_MS, onTimeout: tooLong }, (line) => {
    const space = line.indexOf(' ');
    const oid = line.slice(space + 1);
    if (space < 0 || !isOid(oid)) throw new ProcessFailedError('unexpected rev-list output');
    listed += 1;
    const time = Number(line.slice(0, space));
    if ((since === undefined || time >= since) && (until === undefined || time < until)) oids.push(oid);
  });
  return { oids, listed };
}

/**
 * git's own `-F -i --author`/`--grep` for the filters it matches wherever {@link passes} does
 * (a commit it drops is never wanted); `complete` when that is every author and message filter;
 * `exact` when git keeps exactly the commits {@link passes} keeps: an author filter alone that
 * holds no `<` or `>` and does not end with a space (git matches it in `Name <email>`, where
 * such a text lies within the name or within the email).
 */
function narrowing(options: WalkCommitsOptions): { args: string[]; complete: boolean; exact: boolean } {
  const args: string[] = [];
  let complete = true;
  for (const [value, option] of [
    [options.author, '--author'],
    [options.message, '--grep'],
  ] as const) {
    if (value === undefined) continue;
    if (gitCanNarrow(value)) args.push(`${option}=${value}`);
    else complete = false;
  }
  // Whether git takes both as "and" or "or", what it lists holds every commit matching both:
  // the checks here keep those.
  const { author, message } = options;
  const exact = message === undefined && author !== undefined && gitCanNarrow(author) && !/[<>]/.test(author) && !author.endsWith(' ');
  return { args: args.length === 0 ? [] : ['--fixed-strings', '--regexp-ignore-case', ...args], complete, exact };
}

/** `-- <path>` (read literally: `--literal-pathspecs`), nothing for the root. */
function pathArguments(path: string | undefined): string[] {
  if (path === undefined) return [];
  const segments = splitTreePath(path);
  if (segments === null) throw new InvalidInputError('Invalid path: expected a path in the tree');
  return segments.length === 0 ? [] : ['--', segments.join('/')];
}
