import { readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { InvalidDataError, type Nid, nidFromPublicKey, readNodePublicKey } from '@forge-httpd/identity';
import { parseProfileConfig, type ProfileConfig, type WebConfig } from '../config/profile-config.js';
import { type ConfigLogger, WebConfigWatcher } from '../config/web-config-watcher.js';
import { NodeDatabase } from '../db/node-database.js';
import { PoliciesDatabase } from '../db/policies-database.js';
import type { SeedingPolicy } from '../db/seeding-policy.js';
import { ControlSocketClient } from '../socket/control-socket-client.js';
import type { Flavour } from './flavour.js';
import type { SweeperOptions } from './index-sweeper.js';
import type { StorageRuntime } from '../git/storage-runtime.js';
import { Storage } from './storage.js';
import { StorageIndex } from './storage-index.js';

/** Inputs of {@link openNodeHome}. */
export interface OpenNodeHomeOptions {
  /** The node home directory (`RAD_HOME`-like). */
  home: string;
  flavour: Flavour;
  /** The processes, limits, budgets and caches the home's reads share: one per process (see {@link StorageRuntime}). */
  runtime: StorageRuntime;
  /** Control socket; default `<home>/node/control.sock` (the caller applies `RAD_SOCKET`). */
  socketPath?: string;
  /** Receives config.json, database and git reader problems found while serving. */
  log?: ConfigLogger;
  /** Told each time config.json's `web` section was re-read successfully (a change, `SIGHUP`). */
  onWebConfigReload?: () => void;
  /** Tuning of the storage index's sweeps (tests shorten them). */
  index?: Partial<SweeperOptions>;
  /**
   * The clock file stamps are judged by: a stamp is trusted only once what it covers is
   * `SETTLE_MS` old (default `Date.now`; tests move it ahead instead of waiting).
   */
  now?: () => number;
  /** Commits the branch reachability indexes of all repositories hold together (default 250,000, ~20 MB). */
  reachabilityCommits?: number;
  /** Estimated bytes the last-commit-per-path indexes of all repositories hold together (default 32 MiB). */
  lastCommitBytes?: number;
  /** Bytes of commit ids that answers being written hold together (default 8 MiB; git/history/held-commit-ids.ts). */
  heldCommitIdBytes?: number;
  /**
   * A directory of the caller's where commit-graphs are kept for repositories whose storage has
   * none (git/graph/commit-graph-overlays.ts); none are kept without it.
   */
  commitGraphDir?: string | null;
  /** Packed objects a repository needs to get such a commit-graph (default 5,000). */
  commitGraphMinObjects?: number;
  /**
   * A directory of the caller's where last-commit-per-path indexes are kept across restarts
   * (git/history/commit-changes-file.ts); none are kept without it.
   */
  lastCommitDir?: string | null;
  /** Commits an index needs to be kept there (default 1,000). */
  lastCommitMinCommits?: number;
  /** Repositories kept open at most, least recently opened forgotten first (default 1,024). */
  maxOpenRepositories?: number;
}

/** An opened node home: everything the API reads (docs/node-home.md §1). */
export interface NodeHome {
  /** Canonical absolute path of the home. */
  readonly home: string;
  readonly flavour: Flavour;
  /** The local node's id, from `keys/radicle.pub`. */
  readonly nid: Nid;
  /** config.json as parsed at startup. */
  readonly profile: ProfileConfig;
  /** `node.seedingPolicy` read at startup (never reloaded, docs/radicle-httpd.md §1). */
  readonly defaultSeedingPolicy: SeedingPolicy;
  readonly storage: Storage;
  /** The runtime the home was opened with ({@link OpenNodeHomeOptions.runtime}). */
  readonly runtime: StorageRuntime;
  /** Summaries of every repository, kept fresh in the background once `ready()` was called. */
  readonly storageIndex: StorageIndex;
  readonly nodeDb: NodeDatabase;
  readonly policiesDb: PoliciesDatabase;
  readonly controlSocket: ControlSocketClient;
  /** The clock file stamps are judged by ({@link OpenNodeHomeOptions.now}): callers that stamp files too agree with storage. */
  readonly now: () => number;
  /** The `web` settings, re-read first when config.json changed (docs/decisions.md). */
  currentWebConfig(): WebConfig;
  /** Re-reads config.json now (SIGHUP). */
  reloadWebConfig(): WebConfig;
  /** The stored policy of `rid`, else {@link defaultSeedingPolicy}. */
  effectiveSeedingPolicy(rid: string): SeedingPolicy;
  /** Closes databases and git processes. */
  close(): Promise<void>;
}

async function canonicalHome(home: string): Promise<string> {
  try {
    return await realpath(path.resolve(home));
  } catch (error) {
    throw new InvalidDataError('home', `node home ${home} does not exist`, { cause: error });
  }
}

async function readNid(home: string): Promise<Nid> {
  try {
    return nidFromPublicKey(await readNodePublicKey(home));
  } catch (error) {
    throw new InvalidDataError('home', `node home ${home}: keys/radicle.pub is missing or invalid`, { cause: error });
  }
}

async function readProfile(file: string): Promise<{ profile: ProfileConfig; key: string | null }> {
  // Stat before reading: a write in between then shows as a change on the first request.
  const key = WebConfigWatcher.statKey(file);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new InvalidDataError('config', `${file}: missing or unreadable`, { cause: error });
  }
  try {
    return { profile: parseProfileConfig(text), key };
  } catch (error) {
    throw new InvalidDataError('config', `${file}: ${(error as Error).message.replace(/^config\.json: /, '')}`, {
      cause: error,
    });
  }
}

/**
 * Opens a node home for reading: the NID from `keys/radicle.pub`, config.json parsed once,
 * SQLite databases opened read-only on first use, the storage directory and the control
 * socket client. Missing databases read as empty.
 * @throws InvalidDataError when the home or its public key is missing or invalid
 * @throws InvalidDataError when config.json is missing or invalid
 */
export async function openNodeHome(options: OpenNodeHomeOptions): Promise<NodeHome> {
  const home = await canonicalHome(options.home);
  const nid = await readNid(home);
  const configFile = path.join(home, 'config.json');
  const { profile, key } = await readProfile(configFile);
  const log: ConfigLogger = options.log ?? (() => undefined);
  const watcher = new WebConfigWatcher({ path: configFile, initial: profile.web, initialKey: key, log, onReload: options.onWebConfigReload });
  const onDbError = (message: string, error: unknown): void => log(`${message}: ${error instanceof Error ? error.message : String(error)}`);
  const nodeDb = new NodeDatabase(path.join(home, 'node', 'node.db'), onDbError);
  const policiesDb = new PoliciesDatabase(path.join(home, 'node', 'policies.db'), onDbError);
  const now = options.now ?? Date.now;
  const storage = new Storage(path.join(home, 'storage'), options.flavour, {
    runtime: options.runtime,
    log: (message) => log(message),
    now,
    reachabilityCommits: options.reachabilityCommits,
    lastCommitBytes: options.lastCommitBytes,
    heldCommitIdBytes: options.heldCommitIdBytes,
    commitGraphDir: options.commitGraphDir,
    commitGraphMinObjects: options.commitGraphMinObjects,
    lastCommitDir: options.lastCommitDir,
    lastCommitMinCommits: options.lastCommitMinCommits,
    maxOpenRepositories: options.maxOpenRepositories,
  });
  const storageIndex = new StorageIndex({ ...options.index, storage, flavour: options.flavour, log, now });
  return {
    home,
    flavour: options.flavour,
    nid,
    profile,
    defaultSeedingPolicy: profile.seedingPolicy,
    storage,
    runtime: options.runtime,
    storageIndex,
    nodeDb,
    policiesDb,
    controlSocket: new ControlSocketClient(options.socketPath ?? path.join(home, 'node', 'control.sock')),
    now,
    currentWebConfig: () => watcher.current(),
    reloadWebConfig: () => watcher.reload(),
    effectiveSeedingPolicy: (rid) => policiesDb.seedingPolicy(rid) ?? profile.seedingPolicy,
    close: async () => {
      storageIndex.close();
      nodeDb.close();
      policiesDb.close();
      await storage.close();
    },
  };
}
