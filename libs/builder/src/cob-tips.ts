import type { Oid } from '@forge-httpd/storage';
import { runGit } from './git-cli.js';

/**
 * The current tips of a COB (docs/node-home.md §6.4, §6.5): the targets of every namespace's
 * `refs/cobs/<type>/<id>` ref, without those that are ancestors of another tip, ascending.
 * New changes take these as parents.
 * @param options - repository, COB type name and object id
 * @returns tip commit ids, ascending
 */
export async function listCobTips(options: { gitDir: string; typeName: string; objectId: Oid }): Promise<Oid[]> {
  const out = await runGit(['for-each-ref', '--format=%(objectname) %(refname)', 'refs/namespaces/'], {
    gitDir: options.gitDir,
  });
  const suffix = `/refs/cobs/${options.typeName}/${options.objectId}`;
  const targets = new Set<Oid>();
  for (const line of out.split('\n')) {
    if (line.endsWith(suffix)) targets.add(line.slice(0, 40) as Oid);
  }
  const tips: Oid[] = [];
  for (const candidate of targets) {
    let covered = false;
    for (const other of targets) {
      if (other !== candidate && (await isAncestor(options.gitDir, candidate, other))) covered = true;
    }
    if (!covered) tips.push(candidate);
  }
  return tips.sort();
}

// `merge-base --is-ancestor` answers with its exit code: 0 yes, 1 no.
async function isAncestor(gitDir: string, ancestor: Oid, descendant: Oid): Promise<boolean> {
  try {
    await runGit(['merge-base', '--is-ancestor', ancestor, descendant], { gitDir });
    return true;
  } catch {
    return false;
  }
}
