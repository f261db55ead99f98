import type { Oid } from '@forge-httpd/storage';
import { runGit } from './git-cli.js';

/**
 * Imports history from another git repository into a storage repository with `git fetch` and
 * explicit refspecs (what `rad init`'s `git push <storage> refs/heads/B:refs/namespaces/<nid>/…`
 * achieves), so objects arrive packed exactly as git transfers them. No shell is involved.
 * @param options - storage git dir, source repository path, `+src:dst` refspecs, and optionally
 *   the ref prefix (e.g. `refs/namespaces/<nid>/refs/tags`) to copy the source's tags to
 * @returns the destination refs written, by full name
 * @throws Error when git fails (unknown source, missing branch)
 */
export async function importBranches(options: { gitDir: string; from: string; refspecs: readonly string[]; tagsTo?: string }): Promise<Map<string, Oid>> {
  const refspecs = [...options.refspecs];
  if (options.tagsTo !== undefined) refspecs.push(`+refs/tags/*:${options.tagsTo}/*`);
  await runGit(['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--end-of-options', options.from, ...refspecs], {
    gitDir: options.gitDir,
  });
  const destinations = refspecs.map((spec) => spec.slice(spec.indexOf(':') + 1).replace(/\*$/, ''));
  const out = await runGit(['for-each-ref', '--format=%(objectname) %(refname)'], { gitDir: options.gitDir });
  const refs = new Map<string, Oid>();
  for (const line of out.split('\n')) {
    const name = line.slice(41);
    if (line.length > 41 && destinations.some((destination) => name.startsWith(destination))) {
      refs.set(name, line.slice(0, 40) as Oid);
    }
  }
  return refs;
}
