import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { decodeOpenSshPrivateKey } from '@forge-httpd/identity';
import { parseProfileConfig, type Flavour } from '@forge-httpd/storage';
import { createFixedClock } from './clock.js';
import type { HomeContext } from './node-home.js';

/**
 * Reopens an existing node home for further builder operations (e.g. importing another
 * repository): the key pair comes from `keys/radicle`, the alias from `config.json`. The
 * flavour is not stored in a home, so the caller names it. `context.profile` holds only the
 * alias: do not rewrite config.json from this context.
 * @param options - home directory, flavour and the clock's start time (seconds)
 * @returns the context
 * @throws Error when the key file or config.json is missing or malformed
 */
export async function openHomeContext(options: { home: string; flavour: Flavour; time: number }): Promise<HomeContext> {
  const home = path.resolve(options.home);
  const keyPair = decodeOpenSshPrivateKey(await readFile(path.join(home, 'keys', 'radicle'), 'utf8'));
  const profile = parseProfileConfig(await readFile(path.join(home, 'config.json'), 'utf8'));
  const local = { alias: profile.alias, keyPair };
  return {
    home,
    flavour: options.flavour,
    local,
    clock: createFixedClock({ start: options.time }),
    peers: new Map([[local.alias, local]]),
    profile: { alias: local.alias },
  };
}
