import { InvalidDataError, parseRid, type Rid } from '@forge-httpd/identity';
import { DEFAULT_SEEDING_POLICY, type SeedingPolicy } from '../db/seeding-policy.js';
import { isRepositoryAliasName } from './repository-alias.js';

/** The reloadable display settings: config.json `web` (docs/node-home.md §1.1). */
export interface WebConfig {
  /** `web.pinned.repositories`, canonical `rad:z…`, duplicates removed, file order kept. */
  pinnedRepositories: Rid[];
  avatarUrl?: string;
  bannerUrl?: string;
  description?: string;
  /** `web.aliases`: names that stand for a RID in request paths; present only when the file has them. */
  aliases?: ReadonlyMap<string, Rid>;
}

/** The parts of config.json the server uses (§1.1); everything else is ignored. */
export interface ProfileConfig {
  /** `node.alias`. */
  alias: string;
  /** `node.seedingPolicy` (or the legacy `node.policy`/`node.scope`), default block. */
  seedingPolicy: SeedingPolicy;
  web: WebConfig;
  /** The raw `node` object as written. */
  node: Record<string, unknown>;
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Parses config.json text the way heartwood's profile loader accepts it (§1.1): `node` and
 * `node.alias` are required, `web.pinned.repositories` is required whenever `web` exists and
 * every pin must be a RID; unknown keys are ignored.
 * @throws InvalidDataError naming the first problem found
 */
export function parseProfileConfig(text: string): ProfileConfig {
  const root = parseJsonObject(text);
  const node = root['node'];
  if (!isObject(node)) throw new InvalidDataError('config', 'config.json: "node" must be an object');
  const alias = node['alias'];
  if (typeof alias !== 'string' || alias === '') {
    throw new InvalidDataError('config', 'config.json: "node.alias" must be a non-empty string');
  }
  return {
    alias,
    seedingPolicy: parseSeedingPolicy(node),
    web: parseWebConfig(root['web']),
    node,
  };
}

/**
 * Validates the `web` value of config.json (§1.1, docs/decisions.md). An absent `web` means
 * nothing pinned and no texts.
 * @throws InvalidDataError when `web` is not an object, has no `pinned.repositories` array,
 *   holds a pin that is not a RID, or a text field that is not a string
 */
export function parseWebConfig(web: unknown): WebConfig {
  if (web === undefined) return { pinnedRepositories: [] };
  if (!isObject(web)) throw new InvalidDataError('config', 'config.json: "web" must be an object');
  const pinned = web['pinned'];
  const repositories = isObject(pinned) ? pinned['repositories'] : undefined;
  if (!Array.isArray(repositories)) {
    throw new InvalidDataError('config', 'config.json: "web.pinned.repositories" must be an array');
  }
  const config: WebConfig = { pinnedRepositories: parsePins(repositories) };
  for (const key of ['avatarUrl', 'bannerUrl', 'description'] as const) {
    const value = web[key];
    // serde reads `null` for an optional field as unset.
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') {
      throw new InvalidDataError('config', `config.json: "web.${key}" must be a string`);
    }
    config[key] = value;
  }
  if (web['aliases'] !== undefined && web['aliases'] !== null) config.aliases = parseAliases(web['aliases']);
  return config;
}

/** `web.aliases`: an object of alias name → RID; a bad name or RID makes the section invalid, as a bad pin does. */
function parseAliases(aliases: unknown): Map<string, Rid> {
  const problem = 'config.json: "web.aliases" must map alias names to RIDs';
  if (!isObject(aliases)) throw new InvalidDataError('config', problem);
  const parsed = new Map<string, Rid>();
  for (const [name, rid] of Object.entries(aliases)) {
    if (!isRepositoryAliasName(name) || typeof rid !== 'string') throw new InvalidDataError('config', problem);
    try {
      parsed.set(name, parseRid(rid));
    } catch {
      throw new InvalidDataError('config', problem);
    }
  }
  return parsed;
}

/**
 * Parses the text of config.json as a JSON object.
 * @throws InvalidDataError when it is not JSON or not an object
 */
export function parseJsonObject(text: string): JsonObject {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new InvalidDataError('config', 'config.json: not valid JSON');
  }
  if (!isObject(value)) throw new InvalidDataError('config', 'config.json: not a JSON object');
  return value;
}

function parsePins(repositories: unknown[]): Rid[] {
  const pins = new Set<Rid>();
  for (const pin of repositories) {
    if (typeof pin !== 'string') {
      throw new InvalidDataError('config', 'config.json: "web.pinned.repositories" must hold RIDs');
    }
    try {
      pins.add(parseRid(pin));
    } catch {
      throw new InvalidDataError('config', 'config.json: "web.pinned.repositories" must hold RIDs');
    }
  }
  return [...pins];
}

function parseSeedingPolicy(node: JsonObject): SeedingPolicy {
  // Legacy keys override `seedingPolicy` when both are present (§1.1).
  const legacy = node['policy'] !== undefined && node['scope'] !== undefined;
  const policy = legacy ? node['policy'] : node['seedingPolicy'];
  if (policy === undefined) return DEFAULT_SEEDING_POLICY;
  const tag = legacy ? policy : isObject(policy) ? policy['default'] : undefined;
  const scope = legacy ? node['scope'] : isObject(policy) ? policy['scope'] : undefined;
  if (tag === 'block') return { policy: 'block' };
  if (tag !== 'allow') {
    throw new InvalidDataError('config', 'config.json: "node.seedingPolicy" must be allow or block');
  }
  if (scope === undefined || scope === 'all') return { policy: 'allow', scope: 'all' };
  if (scope === 'followed') return { policy: 'allow', scope: 'followed' };
  throw new InvalidDataError('config', 'config.json: "node.seedingPolicy.scope" must be all or followed');
}
