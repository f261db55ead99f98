import { InvalidInputError } from './error-kinds.js';
import { keyPairFromSeed, type KeyPair } from './key-pair.js';
import { parseSshPublicKeyBlob, sshPublicKeyBlob } from './ssh-public-key.js';
import { SshReader, sshString, sshUint32, unwrapPem, wrapBase64 } from './ssh-wire.js';

/** Message of a malformed ssh key. */
const INVALID_SSH_KEY = 'Invalid ssh key: expected an unencrypted ssh-ed25519 key';

const MAGIC = Buffer.from('openssh-key-v1\0', 'latin1');
const LABEL = 'OPENSSH PRIVATE KEY';
const COMMENT = 'radicle';

/**
 * Encodes the unencrypted OpenSSH private key file `keys/radicle` exactly as heartwood's
 * `ssh-key` crate writes it (docs/node-home.md §2.5): deterministic checkint (XOR of the seed's
 * eight big-endian words), comment `radicle`, padding 1,2,3…, base64 wrapped at 70.
 * @param keyPair - the node's key pair
 * @returns the file text, ending with a newline
 */
export function encodeOpenSshPrivateKey(keyPair: KeyPair): string {
  const pubBlob = sshPublicKeyBlob(keyPair.publicKey);
  const checkint = seedCheckint(keyPair.seed);
  const fields = Buffer.concat([
    sshUint32(checkint),
    sshUint32(checkint),
    sshString('ssh-ed25519'),
    sshString(keyPair.publicKey),
    sshString(Buffer.concat([keyPair.seed, keyPair.publicKey])),
    sshString(COMMENT),
  ]);
  const padding = Buffer.from(Array.from({ length: (8 - (fields.length % 8)) % 8 }, (_, i) => i + 1));
  const body = Buffer.concat([
    MAGIC,
    sshString('none'),
    sshString('none'),
    sshString(''),
    sshUint32(1),
    sshString(pubBlob),
    sshString(Buffer.concat([fields, padding])),
  ]);
  return `-----BEGIN ${LABEL}-----\n${wrapBase64(body.toString('base64'), 70)}\n-----END ${LABEL}-----\n`;
}

/**
 * Decodes an unencrypted OpenSSH ed25519 private key file (ours or an ssh-keygen re-save).
 * @param text - the file text
 * @returns the key pair derived from the seed in the file
 * @throws InvalidInputError when the file is encrypted, malformed or inconsistent
 */
export function decodeOpenSshPrivateKey(text: string): KeyPair {
  const body = unwrapPem(text, LABEL);
  if (body === null || !body.subarray(0, MAGIC.length).equals(MAGIC)) throw new InvalidInputError(INVALID_SSH_KEY);
  const reader = new SshReader(body.subarray(MAGIC.length), () => new InvalidInputError(INVALID_SSH_KEY));
  if (reader.text() !== 'none' || reader.text() !== 'none') {
    throw new InvalidInputError('Invalid ssh key: encrypted keys are not supported');
  }
  reader.string();
  if (reader.uint32() !== 1) throw new InvalidInputError(INVALID_SSH_KEY);
  const publicKey = parseSshPublicKeyBlob(reader.string());
  const secret = new SshReader(reader.string(), () => new InvalidInputError(INVALID_SSH_KEY));
  if (secret.uint32() !== secret.uint32() || secret.text() !== 'ssh-ed25519') throw new InvalidInputError(INVALID_SSH_KEY);
  const innerPublic = secret.string();
  const pair = secret.string();
  if (pair.length !== 64 || !innerPublic.equals(Buffer.from(publicKey))) throw new InvalidInputError(INVALID_SSH_KEY);
  const keyPair = keyPairFromSeed(pair.subarray(0, 32));
  if (!Buffer.from(keyPair.publicKey).equals(pair.subarray(32))) throw new InvalidInputError(INVALID_SSH_KEY);
  return keyPair;
}

function seedCheckint(seed: Uint8Array): number {
  const words = Buffer.from(seed);
  let value = 0;
  for (let i = 0; i < 32; i += 4) value ^= words.readUInt32BE(i);
  return value >>> 0;
}
