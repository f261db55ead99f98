import { join } from 'node:path';
import type { Rid } from '@forge-httpd/identity';
import type { Oid } from '@forge-httpd/storage';
import { type BuiltHome, buildNodeHome } from '@forge-httpd/builder';
import { type ScratchCommit, writeScratchHistory } from '@forge-httpd/builder/scratch';
import { makeTempDir, removeTempDir } from './temp-dir.js';
import { startTestServer, type TestServer, type TestServerOptions } from './test-server.js';

/** A server over a home holding one public repository imported from scratch commits, plus a private copy. */
export interface ScratchServer {
  readonly dir: string;
  readonly built: BuiltHome;
  readonly server: TestServer;
  /** The scratch commits' ids, oldest first. */
  readonly ids: Oid[];
  close(): Promise<void>;
}

/**
 * Writes `commits` into a scratch git repository, imports it with the builder as the public
 * repository `name` and as a private `hidden` one, runs `prepare` on the built home (extra refs
 * and the like) and starts the server on it.
 */
export async function startScratchServer(
  options: {
    name: string;
    seed: string;
    time: number;
    commits: readonly ScratchCommit[];
    prepare?: (built: BuiltHome, ids: Oid[]) => Promise<unknown>;
    /** `--alias` flags, given the built home (its RIDs). */
    aliasesOf?: (built: BuiltHome) => ReadonlyMap<string, Rid>;
  } & Pick<TestServerOptions, 'gitServerLimits' | 'sendStallTimeoutMs' | 'metrics' | 'heldCommitIdBytes' | 'memoryBudgetMiB' | 'aliases'>,
): Promise<ScratchServer> {
  const { name, seed, time, commits, prepare, aliasesOf, ...serverOptions } = options;
  const dir = await makeTempDir();
  const ids = (await writeScratchHistory(join(dir, 'source.git'), [...commits])) as Oid[];
  const history = { kind: 'import' as const, from: join(dir, 'source.git'), sourceRef: 'refs/heads/master' };
  const built = await buildNodeHome({
    home: join(dir, 'home'),
    seed,
    alias: 'seed',
    time,
    repos: [
      { name, history },
      { name: 'hidden', private: true, history },
    ],
  });
  await prepare?.(built, ids);
  const server = await startTestServer({ home: built.home, ...serverOptions, aliases: aliasesOf?.(built) });
  return {
    dir,
    built,
    server,
    ids,
    close: async () => {
      await server.close();
      await removeTempDir(dir);
    },
  };
}
