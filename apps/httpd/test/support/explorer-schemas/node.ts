/**
 * Node-scoped responses as radicle-explorer's http-client accepts them (its `index.ts`):
 * `GET /api/v1`, `/node`, `/info`, `/nodes/{nid}`, `/nodes/{nid}/inventory`, `/stats` and the
 * policy routes.
 */
import { z } from 'zod';
import { nodeConfig, seedingPolicy } from './shared.js';

/** `GET /node`. */
export const node = z.object({
  id: z.string(),
  agent: z.string().nullable(),
  config: nodeConfig.nullable(),
  state: z.enum(['running', 'stopped']),
  avatarUrl: z.string().optional(),
  bannerUrl: z.string().optional(),
  description: z.string().optional(),
});

/** `GET /api/v1` (the explorer calls it node info). */
export const apiInfo = z.object({
  message: z.string(),
  service: z.string(),
  version: z.string(),
  apiVersion: z.string(),
  nid: z.string(),
  path: z.string(),
  links: z.array(z.object({ href: z.string(), rel: z.string(), type: z.enum(['GET', 'POST', 'PUT', 'DELETE']) })),
});

/** `GET /api/v1/info` (served once the lead's info route is merged). */
export const info = z.object({ node, httpd: z.object({ searchAvailable: z.boolean() }) });

/** `GET /nodes/{nid}`: `alias` is required and may be null. */
export const nodeIdentity = z.object({
  alias: z.string().nullable(),
  did: z.string(),
  ssh: z.object({ full: z.string(), hash: z.string() }),
});

/** `GET /nodes/{nid}/inventory`. */
export const inventory = z.array(z.string());

/** `GET /api/v1/stats`. */
export const nodeStats = z.object({ repos: z.object({ total: z.number() }) });

/** `GET /node/policies/repos`. */
export const policies = z.array(z.object({ rid: z.string(), policy: seedingPolicy }));

/** `GET /node/policies/repos/{rid}`. */
export const policy = seedingPolicy;
