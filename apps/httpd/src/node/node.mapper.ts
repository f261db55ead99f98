import type { NodeInfo, RepoPolicy, SeedingPolicy } from '@forge-httpd/api-types';
import type { SeedingPolicy as StoredSeedingPolicy, SeedingPolicyEntry, WebConfig } from '@forge-httpd/storage';

/** Inputs of {@link toNodeInfo}. */
export interface NodeInfoParts {
  nid: string;
  agent: string | null;
  running: boolean;
  config: Record<string, unknown> | null;
  web: WebConfig;
}

/** `GET /node` body, keys in docs/radicle-httpd.md §5.1 order; web texts omitted when unset. */
export function toNodeInfo(parts: NodeInfoParts): NodeInfo {
  const info: NodeInfo = {
    id: parts.nid,
    agent: parts.agent,
    config: parts.config,
    state: parts.running ? 'running' : 'stopped',
  };
  if (parts.web.avatarUrl !== undefined) info.avatarUrl = parts.web.avatarUrl;
  if (parts.web.bannerUrl !== undefined) info.bannerUrl = parts.web.bannerUrl;
  if (parts.web.description !== undefined) info.description = parts.web.description;
  return info;
}

/** A seeding policy, `policy` first and `scope` only for allow (docs/radicle-httpd.md §4.7). */
export function toSeedingPolicy(policy: StoredSeedingPolicy): SeedingPolicy {
  return policy.policy === 'allow' ? { policy: 'allow', scope: policy.scope } : { policy: 'block' };
}

/** An item of `GET /node/policies/repos`. */
export function toRepoPolicy(entry: SeedingPolicyEntry): RepoPolicy {
  return { rid: entry.rid, policy: toSeedingPolicy(entry.policy) };
}
