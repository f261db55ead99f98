import type { NodeInfo } from './node.js';
/**
 * Wire types of the informational routes `GET /`, `GET /api`, `GET /api/v1` and
 * `GET /api/v1/stats` (behaviour.md Part A "Routes", B §2.1, §11).
 */

/** A link of an info body. */
export interface InfoLink {
  href: string;
  rel: string;
  type: 'GET';
}

/** `GET /`. */
export interface RootInfo {
  welcome: string;
  version: string;
  path: '/';
  links: InfoLink[];
}

/** `GET /api`. */
export interface ApiInfo {
  path: '/api';
  links: InfoLink[];
}

/** `GET /api/v1`. */
export interface ApiV1Info {
  message: string;
  service: string;
  version: string;
  apiVersion: string;
  nid: string;
  path: '/api/v1';
  links: InfoLink[];
}

/** `GET /api/v1/stats`: routing rows of the local node. */
export interface NodeStats {
  repos: { total: number };
}

/** `GET /api/v1/info` (radicle-httpd 0.27): the node answer plus what this server offers. */
export interface ServerInfo {
  node: NodeInfo;
  httpd: {
    /** Repository search is built in, so always true (the explorer shows its search box then). */
    searchAvailable: boolean;
  };
}
