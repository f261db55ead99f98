/**
 * History walks through `git rev-list` (which uses the commit-graph when present).
 */
import { ProcessFailedError } from '@forge-httpd/identity';
import { invalidOid, isOid, type Oid } from '../objects/oid.js';
import type { Contributor, WalkCommitsOptions } from '../git-repository.js';
import { runGit, streamGit } from '../processes/run-git.js';
import { streamGitLines } from './stream-git-lines.js';
import { splitTreePath } from '../format/tree-path.js';
import { OidLineReader, OidList } from '../objects/oid-list.js';
import type { GitTarget } from '../processes/git-processes.js';

/**
 * Lists the ids of the commits {@link GitRepository.walkCommits} returns, newest first in
 * rev-list's default order. Without a time filter git applies skip/max-count and stops
 * early. With `since`/`until` the filter is applied here on the committer time printed by
 * `rev-list --timestamp` (read from the commit-graph when present; git's own `--since` stops
 * at the first older commit and so misses commits after clock skew): the walk still ends
 * once `skip + maxCount` commits matched, but reads the whole history when few match (cheap
 * with a commit-graph).
 * @param at - repository, and the processes git runs under
 * @param options - start, exclusions, pagination and committer-time bounds
 * @returns commit ids
 * @throws InvalidInputError for malformed ids; ProcessFailedError when git fails (e.g. unknown start)
 */
export async function walkCommitOids(at: GitTarget, options: WalkCommitsOptions): Promise<OidList> {
  checkWalkWindow(options);
  const { skip = 0, maxCount = Number.POSITIVE_INFINITY, since, until } = options;
  if (maxCount === 0) return OidList.EMPTY;
  const revisions = revisionArguments(options.from, options.exclude ?? []);
  if (since === undefined && until === undefined) {
    const limits = [`--skip=${skip}`, ...(Number.isFinite(maxCount) ? [`--max-count=${maxCount}`] : [])];
    // Straight from the bytes as they arrive: a whole history's ids never become strings all
    // at once, nor its output one buffer. Output that is not one id per line was refused
    // before as well (the ids were checked on reading).
    const reader = new OidLineReader();
    await streamGit({ ...at, args: ['rev-list', ...limits, ...revisions] }, (chunk) => (reader.push(chunk) ? undefined : 'stop'));
    const oids = reader.finish();
    if (oids === null) throw invalidOid();
    return oids;
  }
  const oids: Oid[] = [];
  let toSkip = skip;
  await streamGitLines({ ...at, args: ['rev-list', '--timestamp', ...revisions] }, (line) => {
    const { oid, time } = parseTimestampLine(line);
    if ((since !== undefined && time < since) || (until !== undefined && time >= until)) return undefined;
    if (toSkip > 0) toSkip -= 1;
    else oids.push(oid);
    return oids.length >= maxCount ? 'stop' : undefined;
  });
  return OidList.of(oids);
}

/**
 * Counts the commits reachable from `from` (`git rev-list --count`).
 * @param at - repository, and the processes git runs under
 * @param from - start commit
 * @returns the number of commits including `from`
 */
export async function countCommits(at: GitTarget, from: Oid): Promise<number> {
  const { stdout } = await runGit({ ...at, args: ['rev-list', '--count', ...revisionArguments(from, [])] });
  return Number(stdout.toString('latin1').trim());
}

/**
 * Lists distinct (author name, author email) pairs reachable from `from`, first seen first.
 * Reads every commit once (`%an`/`%ae` need the commit text, not just the commit-graph).
 * @param at - repository, and the processes git runs under
 * @param from - start commit
 * @param exclude - commits whose history is left out (`^<oid>`), e.g. one already counted
 * @returns contributors
 */
export async function listContributors(at: GitTarget, from: Oid, exclude: readonly Oid[] = []): Promise<Contributor[]> {
  const seen = new Map<string, Contributor>();
  const args = ['rev-list', '--no-commit-header', '--format=%an%x00%ae', ...revisionArguments(from, exclude)];
  await streamGitLines({ ...at, args }, (line) => {
    if (seen.has(line)) return;
    const [name = '', email = ''] = line.split('\0');
    seen.set(line, { name, email });
  });
  return [...seen.values()];
}

/** The first of each (name, email) pair, in the order given. */
export function distinctContributors(contributors: readonly Contributor[]): Contributor[] {
  const seen = new Map<string, Contributor>();
  for (const contributor of contributors) {
    const key = `${contributor.name}\0${contributor.email}`;
    if (!seen.has(key)) seen.set(key, contributor);
  }
  return [...seen.values()];
}

/**
 * Committer times of commits reachable from `from` that are later than `sinceExclusive`,
 * in walk order (the whole history is read: commit times need not be monotonic; the times
 * come from `rev-list --timestamp`, i.e. from the commit-graph when there is one).
 * @param at - repository, and the processes git runs under
 * @param range - start commit and lower bound in seconds (exclusive)
 * @returns times in seconds
 */
export async function commitTimes(at: GitTarget, { from, sinceExclusive }: { from: Oid; sinceExclusive: number }): Promise<number[]> {
  const times: number[] = [];
  const args = ['rev-list', '--timestamp', ...revisionArguments(from, [])];
  await streamGitLines({ ...at, args }, (line) => {
    const { time } = parseTimestampLine(line);
    if (time > sinceExclusive) times.push(time);
  });
  return times;
}

/**
 * Committer times of many given commits at once (`rev-list --no-walk --timestamp --stdin`:
 * one process, read from the commit-graph when present, several times faster than reading
 * them here). Nothing is walked.
 * @param at - repository, and the processes git runs under
 * @param oids - commit ids
 * @returns each id that names a commit → its committer time in seconds; ids that are absent
 *   or name another kind of object are left out. The keys are the caller's own strings.
 * @throws InvalidInputError for a malformed id; ProcessFailedError when git fails
 */
export async function commitTimesOf(at: GitTarget, oids: readonly Oid[]): Promise<Map<Oid, number>> {
  // Every line of --stdin is a revision or an option: only well-formed ids are written.
  for (const oid of oids) if (!isOid(oid)) throw invalidOid();
  const found = new Map<string, number>();
  if (oids.length > 0) {
    const args = ['rev-list', '--no-walk=unsorted', '--timestamp', '--ignore-missing', '--stdin'];
    await streamGitLines({ ...at, args, input: `${oids.join('\n')}\n` }, (line) => {
      if (line === '') return;
      const { oid, time } = parseTimestampLine(line);
      found.set(oid, time);
    });
  }
  // Keyed by the caller's strings: ids sliced from git's output would keep its chunks alive.
  const times = new Map<Oid, number>();
  for (const oid of oids) {
    const time = found.get(oid);
    if (time !== undefined) times.set(oid, time);
  }
  return times;
}

/**
 * Finds the newest commit reachable from `from` that changed `path`
 * (`git rev-list -1 <from> -- <path>` with git's default history simplification: a merge
 * counts only when the path differs from every parent). The validated path is passed as a
 * literal pathspec after `--` (`--literal-pathspecs`: no globs, no `:(magic)`).
 * @param at - repository, and the processes git runs under
 * @param options - start commit and repository-relative path (`''` = the root: `from` itself)
 * @returns the commit, or null when no commit touched the path or the path is invalid
 */
export async function lastCommitTouching(at: GitTarget, options: { from: Oid; path: string }): Promise<Oid | null> {
  const segments = splitTreePath(options.path);
  if (segments === null) return null;
  const pathspec = segments.length === 0 ? [] : ['--', segments.join('/')];
  const args = ['--literal-pathspecs', 'rev-list', '--max-count=1', ...revisionArguments(options.from, []), ...pathspec];
  const { stdout } = await runGit({ ...at, args });
  const oid = stdout.toString('latin1').trim();
  return isOid(oid) ? oid : null;
}

/** `--end-of-options <from> ^<exclude>…` after validating every id. */
function revisionArguments(from: Oid, exclude: readonly Oid[]): string[] {
  for (const oid of [from, ...exclude]) if (!isOid(oid)) throw invalidOid();
  return ['--end-of-options', from, ...exclude.map((oid) => `^${oid}`)];
}

/** Parses `<committer time> <oid>` as printed by `rev-list --timestamp`. */
function parseTimestampLine(line: string): { oid: Oid; time: number } {
  const space = line.indexOf(' ');
  const oid = line.slice(space + 1);
  if (space < 0 || !isOid(oid)) throw new ProcessFailedError('unexpected rev-list output');
  return { oid, time: Number(line.slice(0, space)) };
}

/**
 * Checks a walk's `skip` and `maxCount` as {@link walkCommitOids} takes them.
 * @throws RangeError when either is given and not a non-negative integer
 */
export function checkWalkWindow(options: Pick<WalkCommitsOptions, 'skip' | 'maxCount'>): void {
  checkCount(options.skip ?? 0);
  if (options.maxCount !== undefined) checkCount(options.maxCount);
}

function checkCount(value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError('skip/maxCount must be non-negative integers');
}
