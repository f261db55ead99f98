import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { KeyPair } from './key-pair.js';
import { encodeOpenSshPrivateKey } from './openssh-private-key.js';
import { formatSshPublicKey, parseSshPublicKeyLine } from './ssh-public-key.js';

/**
 * Writes `keys/radicle` (OpenSSH private key, mode 0600) and `keys/radicle.pub`
 * (`ssh-ed25519 <base64> radicle\n`) under a node home, as `rad auth` does (docs/node-home.md §2.5).
 * @param homeDir - the node home directory
 * @param keyPair - the node's key pair
 */
export async function writeKeyFiles(homeDir: string, keyPair: KeyPair): Promise<void> {
  const keysDir = path.join(homeDir, 'keys');
  await mkdir(keysDir, { recursive: true });
  const secretPath = path.join(keysDir, 'radicle');
  await writeFile(secretPath, encodeOpenSshPrivateKey(keyPair), { mode: 0o600 });
  // `mode` only applies on creation; an existing file must be tightened too.
  await chmod(secretPath, 0o600);
  await writeFile(path.join(keysDir, 'radicle.pub'), `${formatSshPublicKey(keyPair.publicKey)} radicle\n`);
}

/**
 * Reads the node's public key from `keys/radicle.pub` (first two fields; the comment is ignored).
 * @param homeDir - the node home directory
 * @returns the 32-byte public key
 * @throws InvalidInputError when the file is malformed; fs errors when it is missing
 */
export async function readNodePublicKey(homeDir: string): Promise<Uint8Array> {
  const line = await readFile(path.join(homeDir, 'keys', 'radicle.pub'), 'utf8');
  return parseSshPublicKeyLine(line);
}
