import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { keyPairFromSeed, writeKeyFiles, type KeyPair } from '@forge-httpd/identity';
import { type Flavour } from '@forge-httpd/storage';
import {
  createCobCacheDatabase,
  createNodeDatabase,
  createNotificationsDatabase,
  createPoliciesDatabase,
  formatProfileConfig,
  insertNode,
  type ProfileConfigOptions,
} from '@forge-httpd/storage/write';
import { createFixedClock, type FixedClock } from './clock.js';

/** A node identity known to the builder: its alias and key pair. */
export interface Peer {
  readonly alias: string;
  readonly keyPair: KeyPair;
}

/** The state every builder operation works on. */
export interface HomeContext {
  readonly home: string;
  readonly flavour: Flavour;
  /** The node that owns the home (its keys are in `keys/`). */
  readonly local: Peer;
  readonly clock: FixedClock;
  /** Every peer the builder can sign for, by alias (includes `local`). */
  readonly peers: Map<string, Peer>;
  /** What `config.json` holds; rewrite it with {@link writeProfileConfig} after changes. */
  readonly profile: ProfileConfigOptions;
}

/** Inputs of {@link createNodeHome}. */
export interface CreateNodeHomeOptions {
  readonly home: string;
  readonly seed: Uint8Array;
  readonly alias: string;
  readonly flavour?: Flavour;
  /** Start time in seconds (default 1671125284, heartwood's test date). */
  readonly time?: number;
  /** Seconds the clock advances per operation (default 60; 0 = one date for everything). */
  readonly timeStep?: number;
  /** `config.json` fields besides the alias (web settings, seeding policy…). */
  readonly profile?: Omit<ProfileConfigOptions, 'alias'>;
  /** The local `nodes.agent` (default `/radicle/`, what `rad auth` writes). */
  readonly agent?: string;
}

/** heartwood's CLI test date (`GIT_COMMITTER_DATE`, docs/node-home.md Appendix A). */
export const HEARTWOOD_TEST_TIME = 1671125284;

/**
 * Writes a fresh node home like `rad auth --alias A` (docs/node-home.md §10.1): `storage/`, keys,
 * `config.json`, node.db (migrated, one `nodes` row for itself), policies.db,
 * notifications.db and cobs/cache.db with their exact schemas.
 * @param options - location, key seed, alias, flavour, clock and profile settings
 * @returns the context for further builder operations
 */
export async function createNodeHome(options: CreateNodeHomeOptions): Promise<HomeContext> {
  const home = path.resolve(options.home);
  for (const dir of ['storage', 'keys', 'node', 'cobs']) await mkdir(path.join(home, dir), { recursive: true });
  const local: Peer = { alias: options.alias, keyPair: keyPairFromSeed(options.seed) };
  const clock = createFixedClock({ start: options.time ?? HEARTWOOD_TEST_TIME, step: options.timeStep ?? 60 });
  const context: HomeContext = {
    home,
    flavour: options.flavour ?? 'forge',
    local,
    clock,
    peers: new Map([[local.alias, local]]),
    profile: { ...options.profile, alias: options.alias },
  };
  await writeKeyFiles(home, local.keyPair);
  await writeProfileConfig(context);
  createDatabases(context, options.agent ?? '/radicle/');
  return context;
}

function createDatabases(context: HomeContext, agent: string): void {
  const nodeDb = createNodeDatabase(path.join(context.home, 'node', 'node.db'));
  try {
    insertNode(nodeDb, { id: context.local.keyPair.nid, alias: context.local.alias, timestamp: context.clock.nowMillis(), agent });
  } finally {
    nodeDb.close();
  }
  createPoliciesDatabase(path.join(context.home, 'node', 'policies.db')).close();
  createNotificationsDatabase(path.join(context.home, 'node', 'notifications.db')).close();
  createCobCacheDatabase(path.join(context.home, 'cobs', 'cache.db')).close();
}

/**
 * (Re)writes `config.json` from `context.profile` in heartwood's pretty format (§1.1).
 * @param context - the home
 */
export async function writeProfileConfig(context: HomeContext): Promise<void> {
  await writeFile(path.join(context.home, 'config.json'), formatProfileConfig(context.profile));
}

/**
 * Registers another node whose keys the builder holds (a peer, co-delegate or seed), so
 * operations can sign as it. Its key is derived from `seed`.
 * @returns the peer
 * @throws Error when the alias is already taken by another key
 */
export function addPeer(context: HomeContext, peer: { alias: string; seed: Uint8Array }): Peer {
  const created: Peer = { alias: peer.alias, keyPair: keyPairFromSeed(peer.seed) };
  const existing = context.peers.get(peer.alias);
  if (existing !== undefined && existing.keyPair.nid !== created.keyPair.nid) throw new Error(`peer alias taken: ${peer.alias}`);
  context.peers.set(peer.alias, existing ?? created);
  return existing ?? created;
}

/**
 * Looks a peer up by alias.
 * @throws Error when the builder does not know that alias
 */
export function peerByAlias(context: HomeContext, alias: string): Peer {
  const peer = context.peers.get(alias);
  if (peer === undefined) throw new Error(`unknown peer alias: ${alias}`);
  return peer;
}
