/**
 * The JSON API while clones run: 4 `git clone --bare` of the big repository over smart HTTP,
 * restarted as they finish, while wrk measures a trivial route at c=1 (issue 10: a slow or
 * busy clone must not stop the JSON API from answering quickly). The clone clients run at
 * niceness 19: they stand in for remote clients, and at normal priority their `index-pack`
 * work takes a small machine's cores from the server being measured.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { ForgeServer } from './forge-server.js';
import { runCommand } from './processes.js';
import { type LoadResult, runWrk } from './wrk.js';

/** What {@link measureDuringClones} measured. */
export interface CloneLoadResult {
  readonly trivial: LoadResult;
  readonly clones: number;
  readonly completed: number;
  readonly failed: number;
  /** Median wall time of one completed clone. */
  readonly cloneMedianMs: number;
}

const CLONES = 4;

/**
 * Runs {@link CLONES} clone loops of `rid` and, once they started, wrk on `trivialPath`.
 * @param server - the forge-httpd under test
 * @param input - the big repository's RID, the trivial path, seconds and a scratch directory
 */
export async function measureDuringClones(
  server: ForgeServer,
  input: { rid: string; trivialPath: string; seconds: number; scratchDir: string },
): Promise<CloneLoadResult> {
  const url = `${server.baseUrl}/${input.rid}.git`;
  const times: number[] = [];
  let failed = 0;
  let running = true;
  const loop = async (slot: number): Promise<void> => {
    for (let round = 0; running; round += 1) {
      const dir = path.join(input.scratchDir, `clone-${slot}-${round}`);
      const started = performance.now();
      const result = await runCommand('nice', ['-n', '19', 'git', 'clone', '--quiet', '--bare', url, dir], {
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
      });
      if (result.code === 0) times.push(performance.now() - started);
      else failed += 1;
      await rm(dir, { recursive: true, force: true });
    }
  };
  const loops = Array.from({ length: CLONES }, (_, slot) => loop(slot));
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const trivial = await runWrk({ baseUrl: server.baseUrl, paths: [input.trivialPath], concurrency: 1, seconds: input.seconds, scratchDir: input.scratchDir });
  running = false;
  await Promise.all(loops);
  const sorted = [...times].sort((a, b) => a - b);
  return { trivial, clones: CLONES, completed: times.length, failed, cloneMedianMs: sorted[Math.floor(sorted.length / 2)] ?? NaN };
}
