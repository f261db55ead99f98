import type { ApiInfo, ApiV1Info, InfoLink, NodeStats, RootInfo } from '@forge-httpd/api-types';

/** The compatible radicle-httpd API level (docs/decisions.md "Routes"). */
const API_VERSION = '6.1.0';

function link(href: string, rel: string): InfoLink {
  return { href, rel, type: 'GET' };
}

/** `GET /` (docs/radicle-httpd.md §2.1 with docs/decisions.md's changes: our name, only the `/api` link). */
export function toRootInfo(version: string): RootInfo {
  return {
    welcome: "Welcome to the forge-httpd JSON API, this service doesn't serve a web client.",
    version,
    path: '/',
    links: [link('/api', 'api')],
  };
}

/** `GET /api`. */
export function toApiInfo(): ApiInfo {
  return { path: '/api', links: [link('/v1', 'v1')] };
}

/** `GET /api/v1`, links as docs/radicle-httpd.md §2.1. */
export function toApiV1Info(parts: { version: string; nid: string }): ApiV1Info {
  return {
    message: 'Welcome!',
    service: 'forge-httpd',
    version: parts.version,
    apiVersion: API_VERSION,
    nid: parts.nid,
    path: '/api/v1',
    links: [
      link('/repos', 'repos'),
      link('/repos/:rid', 'repo'),
      link('/info', 'info'),
      link('/node', 'node'),
      link('/nodes/:nid', 'node'),
      link('/delegates/:did/repos', 'repos'),
      link('/stats', 'stats'),
    ],
  };
}

/** `GET /api/v1/stats` (docs/radicle-httpd.md §11). */
export function toNodeStats(routingRows: number): NodeStats {
  return { repos: { total: routingRows } };
}
