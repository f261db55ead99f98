import type { Flavour } from '@forge-httpd/storage';
import { buildNodeHome, repositoryByName, type BuiltHome, type RepositorySpec } from './build-node-home.js';
import { resignRefs } from './built-repository.js';
import { addDemoCollaboration } from './demo-collaboration.js';
import { addDemoReleases } from './demo-releases.js';
import { sourceHistory } from './source-history.js';

/** Fixed demo date: 2024-03-01T12:00:00Z. */
export const DEMO_TIME = 1709294400;

const PEERS = [
  { alias: 'alice', agent: '/radicle:1.2.0/', follow: {} },
  { alias: 'bob', agent: '/radicle:1.1.0/' },
  { alias: 'carol', agent: '/radicle:1.2.0/', follow: { alias: 'carol-from-work' } },
  { alias: 'dave', follow: { policy: 'block' as const } },
  // eve announced nothing: no nodes row, so no alias anywhere.
  { alias: 'eve', known: false },
];

async function demoRepositories(): Promise<RepositorySpec[]> {
  const own = await sourceHistory(process.cwd());
  return [
    {
      name: 'forge-httpd',
      description: 'Read-only HTTP/JSON API over a Radicle-style node home',
      defaultBranch: own?.branch ?? 'main',
      history: own === null ? undefined : { kind: 'import', from: own.gitDir, sourceRef: own.ref },
      seeds: ['alice', 'bob'],
    },
    {
      name: 'acme-web',
      description: 'Website of ACME, maintained by two delegates',
      delegates: ['alice'],
      threshold: 2,
      forks: [{ peer: 'bob' }],
      seeds: ['alice', 'carol'],
    },
    {
      name: 'tiny-lib',
      description: 'A small library, repacked into packfiles and packed-refs',
      defaultBranch: 'master',
      seeds: ['alice', 'bob', 'carol', 'eve'],
      seedingPolicy: { policy: 'allow', scope: 'followed' },
      forks: [{ peer: 'carol' }],
      repack: true,
    },
    { name: 'secret-plans', description: 'A private repository shared with bob', private: { allow: ['bob'] } },
    { name: 'blocked-repo', description: 'Stored but blocked by policy', seedingPolicy: { policy: 'block' } },
  ];
}

/**
 * Writes the demo node home: several public repositories (one imported from this project's own
 * git history when the working directory is a git repository with commits), a private one, a
 * blocked one, pinned repositories, peers with aliases and follow policies, a repository with
 * two delegates (threshold 2), forks, canonical refs with tags and a release branch, a repacked
 * repository, routing rows for several seeds, then issues and patches
 * ({@link addDemoCollaboration}). Deterministic apart from the imported history.
 * @param dir - directory for the home (created)
 * @param options - protocol flavour (default `forge`)
 * @returns the built home
 */
export async function buildDemoHome(dir: string, options: { flavour?: Flavour } = {}): Promise<BuiltHome> {
  const built = await buildNodeHome({
    home: dir,
    seed: 'c0ffee'.padEnd(64, '0'),
    alias: 'seed-demo',
    flavour: options.flavour ?? 'forge',
    time: DEMO_TIME,
    agent: '/radicle:1.2.0/',
    seedingPolicy: { policy: 'allow', scope: 'followed' },
    web: {
      description: 'Demo seed node of forge-httpd',
      avatarUrl: 'https://example.org/avatar.png',
      bannerUrl: 'https://example.org/banner.png',
      pinned: ['acme-web', 'forge-httpd'],
    },
    peers: PEERS,
    repos: await demoRepositories(),
  });
  const { context } = built;
  await addDemoReleases(context, repositoryByName(built, 'acme-web'));
  await addDemoCollaboration({
    home: built.home,
    flavour: built.flavour,
    local: context.local,
    peers: context.peers,
    repos: new Map(built.repos.map((repo) => [repo.name, repo])),
    clock: context.clock,
    resignRefs: (repo, peer) => resignRefs(context, repo, peer),
  });
  return built;
}
