import { didFromNid, type Did, type Nid, type Rid } from '@forge-httpd/identity';
import { type Flavour, type SeedingPolicy } from '@forge-httpd/storage';
import { repackRepository } from '@forge-httpd/storage/write';
import type { BuiltRepository } from './built-repository.js';
import { updateIdentity } from './identity-update.js';
import { initRepository, type HistorySource } from './init-repository.js';
import { addPeer, createNodeHome, peerByAlias, writeProfileConfig, type HomeContext, type Peer } from './node-home.js';
import { recordFollow, recordKnownNode, recordRouting, recordSeedingPolicy, removeRouting } from './node-records.js';
import { forkRepository, type PeerBranch } from './peer-branches.js';
import type { GeneratedCommit } from './generated-history.js';
import { sampleCommits } from './sample-history.js';
import { seedFromHex, seedFromLabel } from './seeds.js';

/** Another node in a built home. */
export interface PeerSpec {
  readonly alias: string;
  /** 64 hex characters or bytes; default derived from the alias. */
  readonly seed?: string | Uint8Array;
  /** Write a node.db `nodes` row with its announced alias (default true). */
  readonly known?: boolean;
  readonly agent?: string;
  /** Follow it (policies.db `following`), optionally under a local alias. */
  readonly follow?: { readonly alias?: string; readonly policy?: 'allow' | 'block' };
}

/** A repository in a built home. */
export interface RepositorySpec {
  readonly name: string;
  readonly description?: string;
  readonly defaultBranch?: string;
  /** Private repository; `allow` lists aliases of peers that may see it besides the delegates. */
  readonly private?: boolean | { readonly allow: readonly string[] };
  /** Default: a generated sample history. */
  readonly history?: HistorySource;
  /** Aliases of further delegates, added by an identity revision (each gets a fork first). */
  readonly delegates?: readonly string[];
  readonly threshold?: number;
  /** Other peers' forks. */
  readonly forks?: readonly { readonly peer: string; readonly branches?: readonly PeerBranch[] }[];
  /** Aliases of peers with a routing row for it (besides the local node when public). */
  readonly seeds?: readonly string[];
  /** Overrides the `rad init` seeding row; `block` also drops the local routing row (`rad block`). */
  readonly seedingPolicy?: SeedingPolicy;
  /** Run `git gc` + `git pack-refs --all` at the end. */
  readonly repack?: boolean;
}

/** Inputs of {@link buildNodeHome}. */
export interface NodeHomeSpec {
  readonly home: string;
  readonly seed: string | Uint8Array;
  readonly alias: string;
  readonly flavour?: Flavour;
  readonly time?: number;
  readonly timeStep?: number;
  readonly agent?: string;
  readonly seedingPolicy?: SeedingPolicy;
  /** Pinned entries may be repository names of this spec or RIDs. */
  readonly web?: { readonly description?: string; readonly avatarUrl?: string; readonly bannerUrl?: string; readonly pinned?: readonly string[] };
  readonly peers?: readonly PeerSpec[];
  readonly repos?: readonly RepositorySpec[];
}

/** A node home written by the builder. */
export interface BuiltHome {
  readonly home: string;
  readonly nid: Nid;
  readonly flavour: Flavour;
  readonly context: HomeContext;
  readonly repos: BuiltRepository[];
}

/**
 * Writes a complete node home from a declarative spec, deterministically (fixed seeds and
 * clock): keys, config.json, databases, peers and policies, then every repository like
 * `rad init` plus forks, extra delegates, routing rows and repacking.
 * @param spec - the home
 * @returns the home, its NID, the builder context and the repositories in spec order
 */
export async function buildNodeHome(spec: NodeHomeSpec): Promise<BuiltHome> {
  const context = await createNodeHome({
    home: spec.home,
    seed: toSeed(spec.seed, spec.alias),
    alias: spec.alias,
    flavour: spec.flavour,
    time: spec.time,
    timeStep: spec.timeStep,
    agent: spec.agent,
    profile: { seedingPolicy: spec.seedingPolicy },
  });
  for (const peer of spec.peers ?? []) registerPeer(context, peer);
  const repos: BuiltRepository[] = [];
  for (const repoSpec of spec.repos ?? []) repos.push(await buildRepository(context, repoSpec));
  await setWebProfile(context, { web: spec.web, repos });
  return { home: context.home, nid: context.local.keyPair.nid, flavour: context.flavour, context, repos };
}

function toSeed(seed: string | Uint8Array | undefined, alias: string): Uint8Array {
  if (seed === undefined) return seedFromLabel(alias);
  return typeof seed === 'string' ? seedFromHex(seed) : seed;
}

function registerPeer(context: HomeContext, spec: PeerSpec): Peer {
  const peer = addPeer(context, { alias: spec.alias, seed: toSeed(spec.seed, spec.alias) });
  if (spec.known !== false) recordKnownNode(context, { nid: peer.keyPair.nid, alias: spec.alias, agent: spec.agent });
  if (spec.follow !== undefined) recordFollow(context, { nid: peer.keyPair.nid, ...spec.follow });
  return peer;
}

/**
 * Sets `web` in config.json (description, avatar, banner, pinned repositories given by name or
 * RID) and rewrites the file.
 */
export async function setWebProfile(context: HomeContext, input: { web: NodeHomeSpec['web']; repos: readonly BuiltRepository[] }): Promise<void> {
  const web = input.web;
  if (web === undefined) return;
  const byName = new Map(input.repos.map((repo) => [repo.name, repo.rid]));
  const pinned = (web.pinned ?? []).map((entry) => byName.get(entry) ?? entry);
  Object.assign(context.profile, { web: { ...web, pinned } });
  await writeProfileConfig(context);
}

async function buildRepository(context: HomeContext, spec: RepositorySpec): Promise<BuiltRepository> {
  const history: HistorySource = spec.history ?? { kind: 'generated', commits: sampleHistory(context, spec.name) };
  const repo = await initRepository(context, {
    name: spec.name,
    description: spec.description,
    defaultBranch: spec.defaultBranch ?? 'main',
    history,
    private: typeof spec.private === 'object' ? { allow: spec.private.allow.map((alias) => didOf(context, alias)) } : spec.private,
  });
  if (spec.delegates !== undefined && spec.delegates.length > 0) await addDelegates(context, repo, spec);
  for (const fork of spec.forks ?? []) await forkRepository(context, repo, { peer: peerByAlias(context, fork.peer), branches: fork.branches });
  for (const alias of spec.seeds ?? []) recordRouting(context, { rid: repo.rid, nid: peerByAlias(context, alias).keyPair.nid });
  if (spec.seedingPolicy !== undefined) recordSeedingPolicy(context, { rid: repo.rid, policy: spec.seedingPolicy });
  if (spec.seedingPolicy?.policy === 'block') removeRouting(context, { rid: repo.rid, nid: context.local.keyPair.nid });
  if (spec.repack === true) await repackRepository(repo.gitDir);
  return repo;
}

function didOf(context: HomeContext, alias: string): Did {
  return didFromNid(peerByAlias(context, alias).keyPair.nid);
}

// Sample commits come before `rad init`, so the clock moves past them.
function sampleHistory(context: HomeContext, project: string): GeneratedCommit[] {
  const author = { name: context.local.alias, email: `${context.local.alias}@example.org` };
  const commits = sampleCommits({ project, authors: [author], start: context.clock.tick() });
  context.clock.advanceTo((commits.at(-1)?.author.time ?? 0) + 60);
  return commits;
}

async function addDelegates(context: HomeContext, repo: BuiltRepository, spec: RepositorySpec): Promise<void> {
  const added = (spec.delegates ?? []).map((alias) => peerByAlias(context, alias));
  for (const peer of added) await forkRepository(context, repo, { peer });
  const delegates = [...repo.document.delegates, ...added.map((peer) => didFromNid(peer.keyPair.nid))];
  await updateIdentity(context, repo, {
    author: context.local,
    title: `Add ${added.map((peer) => peer.alias).join(', ')}`,
    description: 'Add delegates',
    document: { ...repo.document, delegates, threshold: spec.threshold ?? repo.document.threshold },
  });
}

/** Looks a built repository up by name. */
export function repositoryByName(home: BuiltHome, name: string): BuiltRepository & { rid: Rid } {
  const repo = home.repos.find((candidate) => candidate.name === name);
  if (repo === undefined) throw new Error(`no repository named ${name}`);
  return repo;
}
