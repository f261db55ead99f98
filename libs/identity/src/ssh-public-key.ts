import { createHash } from 'node:crypto';
import { InvalidInputError } from './error-kinds.js';
import { SshReader, sshString } from './ssh-wire.js';

/** Message of a malformed ssh key. */
const INVALID_SSH_KEY = 'Invalid ssh key: expected an unencrypted ssh-ed25519 key';

const KEY_TYPE = 'ssh-ed25519';

/**
 * Builds the 51-byte SSH wire blob of an Ed25519 key: string("ssh-ed25519") ‖ string(key)
 * (docs/node-home.md §2.4).
 * @param publicKey - 32-byte public key
 * @returns the wire blob
 */
export function sshPublicKeyBlob(publicKey: Uint8Array): Buffer {
  if (publicKey.length !== 32) throw new InvalidInputError('Invalid ssh key: expected a 32-byte public key');
  return Buffer.concat([sshString(KEY_TYPE), sshString(publicKey)]);
}

/**
 * Formats the OpenSSH public key text without comment (the API's `ssh.full`, §2.4).
 * @param publicKey - 32-byte public key
 * @returns `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI…` (68 base64 characters, never padded)
 */
export function formatSshPublicKey(publicKey: Uint8Array): string {
  return `${KEY_TYPE} ${sshPublicKeyBlob(publicKey).toString('base64')}`;
}

/**
 * Computes the OpenSSH SHA-256 fingerprint (the API's `ssh.hash`, §2.4).
 * @param publicKey - 32-byte public key
 * @returns `SHA256:` + unpadded standard base64 of SHA-256(wire blob)
 */
export function sshFingerprint(publicKey: Uint8Array): string {
  const digest = createHash('sha256').update(sshPublicKeyBlob(publicKey)).digest('base64');
  return 'SHA256:' + digest.replace(/=+$/, '');
}

/**
 * Parses an OpenSSH public key line (`ssh-ed25519 <base64> [comment]`), e.g. `keys/radicle.pub`.
 * @param line - the line; surrounding whitespace and a trailing newline are ignored
 * @returns the 32-byte public key
 * @throws InvalidInputError when the line is not an ssh-ed25519 key
 */
export function parseSshPublicKeyLine(line: string): Uint8Array {
  const [type, base64] = line.trim().split(/\s+/);
  if (type !== KEY_TYPE || base64 === undefined || !/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) {
    throw new InvalidInputError(INVALID_SSH_KEY);
  }
  return parseSshPublicKeyBlob(Buffer.from(base64, 'base64'));
}

/**
 * Parses an SSH wire blob of an Ed25519 public key.
 * @param blob - string("ssh-ed25519") ‖ string(32 bytes)
 * @returns the 32-byte public key
 * @throws InvalidInputError when the blob is malformed or another key type
 */
export function parseSshPublicKeyBlob(blob: Uint8Array): Uint8Array {
  const reader = new SshReader(Buffer.from(blob), () => new InvalidInputError(INVALID_SSH_KEY));
  if (reader.text() !== KEY_TYPE) throw new InvalidInputError(INVALID_SSH_KEY);
  const key = reader.string();
  if (key.length !== 32 || reader.remaining() !== 0) throw new InvalidInputError(INVALID_SSH_KEY);
  return new Uint8Array(key);
}
