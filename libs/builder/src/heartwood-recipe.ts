import { didFromNid } from '@forge-httpd/identity';
import type { Flavour } from '@forge-httpd/storage';
import type { BuiltRepository } from './built-repository.js';
import { heartwoodFixtureCommits } from './generated-history.js';
import { updateIdentity, type IdentityUpdate } from './identity-update.js';
import { initRepository } from './init-repository.js';
import { addPeer, createNodeHome, HEARTWOOD_TEST_TIME, type HomeContext, type Peer } from './node-home.js';
import { forkRepository } from './peer-branches.js';

/** Result of {@link buildHeartwoodHome}. */
export interface HeartwoodHome {
  readonly context: HomeContext;
  readonly repo: BuiltRepository;
  readonly alice: Peer;
  readonly bob: Peer;
  /** The "Add Bob" identity revision. */
  readonly addBob: IdentityUpdate;
}

/**
 * Reproduces heartwood's CLI test setup (docs/node-home.md Appendix A): alice (seed 32 × 0xff)
 * runs `rad auth` and `rad init` of the `heartwood` fixture repository with
 * `GIT_COMMITTER_DATE=1671125284`; bob (seed 32 × 0xfe) forks it; alice proposes the
 * "Add Bob" revision (delegates alice+bob, threshold 2), adopted by her single vote.
 * Under flavour `radicle` every id equals the golden vectors.
 * @param home - directory of the node home (created)
 * @param flavour - default `radicle`
 * @returns the context, the repository and the peers
 */
export async function buildHeartwoodHome(home: string, flavour: Flavour = 'radicle'): Promise<HeartwoodHome> {
  const context = await createNodeHome({
    home,
    seed: new Uint8Array(32).fill(0xff),
    alias: 'alice',
    flavour,
    time: HEARTWOOD_TEST_TIME,
    timeStep: 0,
  });
  const repo = await initRepository(context, {
    name: 'heartwood',
    description: 'Radicle Heartwood Protocol & Stack',
    defaultBranch: 'master',
    history: { kind: 'generated', commits: heartwoodFixtureCommits() },
  });
  const alice = context.local;
  const bob = addPeer(context, { alias: 'bob', seed: new Uint8Array(32).fill(0xfe) });
  await forkRepository(context, repo, { peer: bob });
  const addBob = await updateIdentity(context, repo, {
    author: alice,
    title: 'Add Bob',
    description: 'Add Bob as a delegate',
    document: { ...repo.document, delegates: [didFromNid(alice.keyPair.nid), didFromNid(bob.keyPair.nid)], threshold: 2 },
  });
  return { context, repo, alice, bob, addBob };
}
