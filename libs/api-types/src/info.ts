/**
 * Informational routes `GET /`, `GET /api`, `GET /api/v1`, `GET /api/v1/stats` and
 * `GET /api/v1/info` (docs/decisions.md "Routes", docs/radicle-httpd.md §2.1, §11).
 */
import * as v from 'valibot';
import { nodeInfoSchema } from './node.js';
import { countSchema } from './scalars.js';

/** A link of an info body. */
export const infoLinkSchema = v.object({
  href: v.string(),
  rel: v.string(),
  type: v.literal('GET'),
});
export type InfoLink = v.InferOutput<typeof infoLinkSchema>;

/** `GET /`. */
export const rootInfoSchema = v.object({
  welcome: v.string(),
  version: v.string(),
  path: v.literal('/'),
  links: v.array(infoLinkSchema),
});
export type RootInfo = v.InferOutput<typeof rootInfoSchema>;

/** `GET /api`. */
export const apiInfoSchema = v.object({
  path: v.literal('/api'),
  links: v.array(infoLinkSchema),
});
export type ApiInfo = v.InferOutput<typeof apiInfoSchema>;

/** `GET /api/v1`. */
export const apiV1InfoSchema = v.object({
  message: v.string(),
  service: v.string(),
  version: v.string(),
  apiVersion: v.string(),
  nid: v.string(),
  path: v.literal('/api/v1'),
  links: v.array(infoLinkSchema),
});
export type ApiV1Info = v.InferOutput<typeof apiV1InfoSchema>;

/** `GET /api/v1/stats`: routing rows of the local node. */
export const nodeStatsSchema = v.object({
  repos: v.object({ total: countSchema }),
});
export type NodeStats = v.InferOutput<typeof nodeStatsSchema>;

/** `GET /api/v1/info` (radicle-httpd 0.27): the node answer plus what this server offers. */
export const serverInfoSchema = v.object({
  node: nodeInfoSchema,
  httpd: v.object({
    /** Repository search is built in, so always true (the explorer shows its search box then). */
    searchAvailable: v.boolean(),
  }),
});
export type ServerInfo = v.InferOutput<typeof serverInfoSchema>;
