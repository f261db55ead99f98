import type { CobWriteContext } from '@forge-httpd/cob/write';
import type { GitSignature } from '@forge-httpd/storage';
import { type BuiltHome, type BuiltRepository, buildNodeHome, type HistoryTip, peerByAlias, pushCommits } from '@forge-httpd/builder';

/** Writes COB changes and pushes commits as the peers of a built home, on its first repository. */
export interface CobWriter {
  /** The home's first repository. */
  repo(): BuiltRepository;
  /** A write context for a peer at the next tick of the home's clock. */
  as(alias: string, extra?: Partial<CobWriteContext>): CobWriteContext;
  /** A peer pushes one commit adding `file` to a branch of its namespace; returns the new tip. */
  push(alias: string, branch: string, file: string, parent?: HistoryTip): Promise<HistoryTip>;
}

/**
 * The writer of a home that `built()` returns once built (specs build it in `beforeAll`).
 * @param built - returns the built home
 */
export function cobWriter(built: () => BuiltHome): CobWriter {
  const repo = (): BuiltRepository => {
    const first = built().repos[0];
    if (first === undefined) throw new Error('no repository');
    return first;
  };
  return {
    repo,
    as: (alias, extra = {}) => {
      const peer = peerByAlias(built().context, alias);
      return { gitDir: repo().gitDir, keyPair: peer.keyPair, alias, time: built().context.clock.tick(), flavour: 'forge', ...extra };
    },
    push: (alias, branch, file, parent) => {
      const context = built().context;
      const author: GitSignature = { name: alias, email: `${alias}@example.com`, time: context.clock.tick(), offset: '+0000' };
      const commit = { message: `Change ${file}\n`, changes: { [file]: `${file} by ${alias}\n` }, author };
      return pushCommits(context, repo(), { peer: peerByAlias(context, alias), branch, commits: [commit], parent });
    },
  };
}

/**
 * The small home of the COB specs under `dir`: local node `alice`, peers `bob` and `eve` (eve
 * unknown to the node), one repository (default `acme`) forked by the given peers.
 */
export function buildCobHome(dir: string, options: { forks: readonly string[]; name?: string; seed?: string }): Promise<BuiltHome> {
  return buildNodeHome({
    home: `${dir}/home`,
    seed: options.seed ?? 'a'.repeat(64),
    alias: 'alice',
    peers: [{ alias: 'bob' }, { alias: 'eve', known: false }],
    repos: [{ name: options.name ?? 'acme', forks: options.forks.map((peer) => ({ peer })) }],
  });
}
