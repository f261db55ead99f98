/**
 * Reference listing and symbolic-ref reads. Single refs are resolved from the loose ref
 * files and `packed-refs`, or by the repository's cat-file process (see
 * {@link openGitRepository}).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AFTER_LINE_OID, forEachLine, lineOid } from '../objects/buffer-lines.js';
import type { RefEntry } from '../git-repository.js';
import { invalidOid, isOid, type Oid } from '../objects/oid.js';
import type { RefListing } from './ref-listing-cache.js';
import { checkRefName, invalidRefName, isValidRefPrefix } from '../objects/ref-name.js';
import { runGit } from '../processes/run-git.js';
import type { GitTarget } from '../processes/git-processes.js';

/**
 * Lists refs under `prefix` with `git for-each-ref` (loose and packed, symbolic refs
 * resolved, dangling ones skipped by git), sorted by name bytes.
 * @param at - repository, and the processes git runs under
 * @param prefix - `refs/` or a valid ref name followed by `/`
 * @returns name/oid pairs, and whether every symbolic ref among them points under `prefix`
 * @throws InvalidInputError for a malformed prefix
 */
export async function listRefs(at: GitTarget, prefix: string): Promise<RefListing> {
  if (!isValidRefPrefix(prefix)) throw invalidRefName('prefix');
  const { stdout } = await runGit({
    ...at,
    args: ['for-each-ref', '--format=%(objectname)%00%(refname)%00%(symref)', '--end-of-options', prefix],
  });
  const entries: RefEntry[] = [];
  let selfContained = true;
  // Fields decoded one by one: names and ids outlive the listing (buffer-lines.ts).
  forEachLine(stdout, (start, end) => {
    const oid = lineOid(stdout, start, end, 0);
    const nameEnd = stdout.indexOf(0, start + AFTER_LINE_OID);
    if (oid === null || nameEnd < 0 || nameEnd >= end) return;
    entries.push({ name: stdout.toString('utf8', start + AFTER_LINE_OID, nameEnd), oid });
    if (nameEnd + 1 < end && !stdout.toString('utf8', nameEnd + 1, end).startsWith(prefix)) selfContained = false;
  });
  return { entries, selfContained };
}

/**
 * Names of the refs under `prefixes` whose tip contains `commit` (`git for-each-ref
 * --contains`: one process for every ref instead of one ancestry test per ref), sorted by
 * name bytes.
 * @throws InvalidInputError for a malformed prefix; InvalidInputError for a malformed oid
 */
export async function listRefsContaining(at: GitTarget, commit: Oid, prefixes: readonly string[]): Promise<string[]> {
  if (!isOid(commit)) throw invalidOid();
  if (prefixes.length === 0) return [];
  for (const prefix of prefixes) if (!isValidRefPrefix(prefix)) throw invalidRefName('prefix');
  const { stdout } = await runGit({
    ...at,
    args: ['for-each-ref', `--contains=${commit}`, '--format=%(refname)', '--end-of-options', ...prefixes],
  });
  return stdout
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '');
}

/**
 * Reads the target of a symbolic ref. Symbolic refs are always loose files
 * (`packed-refs` cannot hold them), so the file is read directly; the validated name
 * cannot escape the git directory (no `..`, no component starting with `.`). Read
 * synchronously: a few bytes, while an asynchronous read waits behind whatever holds libuv's
 * thread pool (a rescan of the storage folder kept a history page's `HEAD` read 19 ms).
 * @param gitDir - repository
 * @param name - `HEAD` or a full `refs/…` name
 * @returns the target ref name, or null when the ref is direct or absent
 * @throws InvalidInputError for a malformed name
 */
export async function readSymbolicRef(gitDir: string, name: string): Promise<string | null> {
  checkRefName(name);
  let text: string;
  try {
    text = readFileSync(path.join(gitDir, name), 'utf8');
  } catch {
    return null;
  }
  if (!text.startsWith('ref: ')) return null;
  const target = text.slice(5).trim();
  return target === '' ? null : target;
}
