import { ridFromOid, type Rid } from '@forge-httpd/identity';
import type { Flavour } from '@forge-httpd/storage';
import { type BuiltHome, buildNodeHome, type NodeHomeSpec } from '@forge-httpd/builder';

/** A well-formed RID that no fixture repository has. */
export const ABSENT_RID: Rid = ridFromOid('0123456789abcdef0123456789abcdef01234567');

/** Fixed start time of the fixture clock (2023-11-14T22:13:20Z). */
export const FIXTURE_TIME = 1700000000;

/**
 * The node home of the app's e2e specs: local node `seed` (default policy block) with peers
 * `bob` (followed as `bobby`), `carol` (announced alias only) and `dave` (unknown: no alias);
 * repositories `alpha` (pinned, seeded by bob and carol), `beta` (delegates seed + bob),
 * `gamma-alpha` and `Alphabet` (search order), `secret` (private, pinned), `blocked` (policy
 * block, pinned) and one pinned RID that is not in storage.
 */
function fixtureHomeSpec(home: string, flavour: Flavour = 'forge'): NodeHomeSpec {
  return {
    home,
    seed: '5eed'.padEnd(64, '0'),
    alias: 'seed',
    flavour,
    time: FIXTURE_TIME,
    agent: '/radicle:1.2.0/',
    seedingPolicy: { policy: 'block' },
    web: {
      description: 'Test seed node',
      avatarUrl: 'https://example.org/avatar.png',
      pinned: ['secret', 'alpha', 'blocked', ABSENT_RID],
    },
    peers: [{ alias: 'bob', follow: { alias: 'bobby' }, agent: '/radicle:1.1.0/' }, { alias: 'carol' }, { alias: 'dave', known: false }],
    repos: [
      { name: 'alpha', description: 'The first repository', seeds: ['bob', 'carol'] },
      { name: 'beta', description: 'Two delegates', delegates: ['bob'], threshold: 1, seeds: ['carol'] },
      { name: 'gamma-alpha', description: 'Matches alpha later', defaultBranch: 'master' },
      { name: 'Alphabet', description: 'Matches alpha at 0, upper case', seeds: ['bob', 'carol', 'dave'] },
      { name: 'secret', description: 'Private', private: true, seeds: ['bob'] },
      { name: 'blocked', description: 'Blocked by policy', seedingPolicy: { policy: 'block' } },
    ],
  };
}

/** Builds the fixture home into `dir` (see {@link fixtureHomeSpec}). */
export function buildFixtureHome(dir: string, flavour: Flavour = 'forge'): Promise<BuiltHome> {
  return buildNodeHome(fixtureHomeSpec(dir, flavour));
}
