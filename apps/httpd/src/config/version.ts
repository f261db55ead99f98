import { readFileSync } from 'node:fs';

/**
 * The server version: `version` of apps/httpd/package.json (same relative place from `src/`
 * under tests and from `dist/` when built).
 */
export function readServerVersion(): string {
  const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
  const version: unknown = (JSON.parse(text) as { version?: unknown }).version;
  return typeof version === 'string' ? version : '0.0.0';
}
