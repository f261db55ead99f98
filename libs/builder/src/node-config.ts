import { readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Reads the `node` object of a home's config.json: what a running node's control socket
 * answers to `config` (docs/node-home.md §9). Handy as `startControlSocket({config})`.
 * @param home - the node home directory
 * @returns the `node` object as JSON
 * @throws Error when config.json is missing or has no `node` object
 */
export async function readNodeConfig(home: string): Promise<Record<string, unknown>> {
  const config = JSON.parse(await readFile(path.join(home, 'config.json'), 'utf8')) as { node?: unknown };
  if (typeof config.node !== 'object' || config.node === null) throw new Error('config.json has no node object');
  return config.node as Record<string, unknown>;
}
