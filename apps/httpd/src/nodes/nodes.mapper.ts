import type { NodeIdentity } from '@forge-httpd/api-types';

/** `GET /nodes/{nid}` body; `alias` is null when unknown (docs/radicle-httpd.md §5.4). */
export function toNodeIdentity(parts: { alias: string | null; did: string; sshFull: string; sshHash: string }): NodeIdentity {
  return { alias: parts.alias, did: parts.did, ssh: { full: parts.sshFull, hash: parts.sshHash } };
}
