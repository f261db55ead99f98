import type { SeedingPolicy } from '../db/seeding-policy.js';

/** What a generated config.json contains; omitted fields take `rad auth`'s defaults. */
export interface ProfileConfigOptions {
  alias: string;
  seedingPolicy?: SeedingPolicy;
  web?: {
    pinned?: readonly string[];
    bannerUrl?: string;
    avatarUrl?: string;
    description?: string;
  };
  publicExplorer?: string;
  preferredSeeds?: readonly string[];
  hints?: boolean;
  listen?: readonly string[];
  connect?: readonly string[];
  externalAddresses?: readonly string[];
  network?: 'main' | 'test';
  relay?: 'auto' | 'always' | 'never';
  log?: string;
  workers?: number;
}

/** `rad auth`'s default public seeds (Radicle 1.2; the list is version-dependent). */
export const DEFAULT_PREFERRED_SEEDS: readonly string[] = [
  'z6MkrLMMsiPWUcNPHcRajuMi9mDfYckSoJyPwwnknocNYPm7@iris.radicle.xyz:8776',
  'z6Mkmqogy2qEM2ummccUthFEaaHvyYmYBYh3dbe9W4ebScxo@rosa.radicle.xyz:8776',
];

const DEFAULT_PUBLIC_EXPLORER = 'https://app.radicle.xyz/nodes/$host/$rid$path';

// Rust f64 fields: serde_json writes them with a fractional part (`5.0`).
const FLOAT_KEYS = ['fillRate'];

function defaultLimits(): Record<string, unknown> {
  return {
    routingMaxSize: 1000,
    routingMaxAge: 604800,
    gossipMaxAge: 1209600,
    fetchConcurrency: 1,
    maxOpenFiles: 4096,
    rate: {
      inbound: { fillRate: 5, capacity: 1024 },
      outbound: { fillRate: 10, capacity: 2048 },
    },
    connection: { inbound: 128, outbound: 16 },
    fetchPackReceive: '500.0 MiB',
  };
}

function formatSeedingPolicy(policy: SeedingPolicy): Record<string, string> {
  return policy.policy === 'allow' ? { default: 'allow', scope: policy.scope } : { default: 'block' };
}

function webSection(web: ProfileConfigOptions['web']): Record<string, unknown> {
  const section: Record<string, unknown> = { pinned: { repositories: [...(web?.pinned ?? [])] } };
  // serde skips unset optional fields; field order follows heartwood's `web::Config`.
  if (web?.bannerUrl !== undefined) section['bannerUrl'] = web.bannerUrl;
  if (web?.avatarUrl !== undefined) section['avatarUrl'] = web.avatarUrl;
  if (web?.description !== undefined) section['description'] = web.description;
  return section;
}

function nodeSection(options: ProfileConfigOptions): Record<string, unknown> {
  return {
    alias: options.alias,
    listen: [...(options.listen ?? [])],
    peers: { type: 'dynamic' },
    connect: [...(options.connect ?? [])],
    externalAddresses: [...(options.externalAddresses ?? [])],
    network: options.network ?? 'main',
    log: options.log ?? 'INFO',
    relay: options.relay ?? 'auto',
    limits: defaultLimits(),
    workers: options.workers ?? 8,
    seedingPolicy: formatSeedingPolicy(options.seedingPolicy ?? { policy: 'block' }),
  };
}

/**
 * Renders config.json as `rad auth` writes it (docs/node-home.md §1.1): serde_json's pretty
 * printer (2-space indent, `": "`), heartwood's field order, floats as `5.0`, final newline.
 */
export function formatProfileConfig(options: ProfileConfigOptions): string {
  const config = {
    publicExplorer: options.publicExplorer ?? DEFAULT_PUBLIC_EXPLORER,
    preferredSeeds: [...(options.preferredSeeds ?? DEFAULT_PREFERRED_SEEDS)],
    web: webSection(options.web),
    cli: { hints: options.hints ?? true },
    node: nodeSection(options),
  };
  let text = JSON.stringify(config, null, 2);
  for (const key of FLOAT_KEYS) {
    text = text.replace(new RegExp(`("${key}": -?\\d+)(,?\\n)`, 'g'), '$1.0$2');
  }
  return `${text}\n`;
}
