import { join } from 'node:path';
import { type BuiltHome, buildNodeHome } from '@forge-httpd/builder';
import { type ScratchCommit, writeScratchHistory } from '@forge-httpd/builder/scratch';

/**
 * A node home under `dir` with one repository, `name`, imported from a history written with
 * `writeScratchHistory` (at `dir/<name>.git`, branch `master`).
 * @returns the home and the history's commit ids, in the order of `commits`
 */
export async function buildScratchHome(
  dir: string,
  options: { name: string; commits: readonly ScratchCommit[]; seed: string; time: number },
): Promise<{ built: BuiltHome; ids: string[] }> {
  const source = join(dir, `${options.name}.git`);
  const ids = await writeScratchHistory(source, options.commits);
  const built = await buildNodeHome({
    home: join(dir, 'home'),
    seed: options.seed,
    alias: 'seed',
    time: options.time,
    repos: [{ name: options.name, history: { kind: 'import', from: source, sourceRef: 'refs/heads/master' } }],
  });
  return { built, ids };
}
