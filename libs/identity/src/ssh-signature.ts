import { InvalidInputError } from './error-kinds.js';
import { parseSshPublicKeyBlob, sshPublicKeyBlob } from './ssh-public-key.js';
import { SshReader, sshString, sshUint32, unwrapPem, wrapBase64 } from './ssh-wire.js';

/** Message of a malformed ssh signature. */
const INVALID_SSH_SIGNATURE = 'Invalid ssh signature: expected an ssh-ed25519 SSHSIG armor';

const MAGIC = Buffer.from('SSHSIG', 'latin1');
const LABEL = 'SSH SIGNATURE';

/** The key and raw signature carried by an SSHSIG armor. */
export interface SshSignature {
  readonly publicKey: Uint8Array;
  readonly signature: Uint8Array;
  readonly namespace: string;
}

/**
 * Packages a raw Ed25519 signature as an armored SSHSIG blob, the way COB change commits carry
 * it in `gpgsig` (docs/node-home.md §6.2). Only the packaging is SSHSIG: the signature itself is
 * over whatever the caller signed (for COBs the 20 raw tree-oid bytes).
 * @param publicKey - 32-byte key of the signer
 * @param signature - 64-byte Ed25519 signature
 * @returns PEM text (`-----BEGIN SSH SIGNATURE-----` … `-----END SSH SIGNATURE-----`), base64
 *   wrapped at 70 characters, WITHOUT a final newline (ready to become a commit header)
 */
export function armorSshSignature(publicKey: Uint8Array, signature: Uint8Array): string {
  if (signature.length !== 64) throw new InvalidInputError('Invalid ssh signature: expected 64 bytes');
  const blob = Buffer.concat([
    MAGIC,
    sshUint32(1),
    sshString(sshPublicKeyBlob(publicKey)),
    sshString('radicle'),
    sshString(''),
    sshString('sha256'),
    sshString(Buffer.concat([sshString('ssh-ed25519'), sshString(signature)])),
  ]);
  return `-----BEGIN ${LABEL}-----\n${wrapBase64(blob.toString('base64'), 70)}\n-----END ${LABEL}-----`;
}

/**
 * Parses an armored SSHSIG blob. Lines may carry git's one-space header continuation indent.
 * @param text - the armor (e.g. the value of a commit's `gpgsig` header)
 * @returns the signer's key, the 64-byte signature and the namespace
 * @throws InvalidInputError when the armor is malformed or not ssh-ed25519
 */
export function parseSshSignatureArmor(text: string): SshSignature {
  const blob = unwrapPem(text, LABEL);
  if (blob === null || !blob.subarray(0, MAGIC.length).equals(MAGIC)) throw new InvalidInputError(INVALID_SSH_SIGNATURE);
  const fail = (): Error => new InvalidInputError(INVALID_SSH_SIGNATURE);
  const reader = new SshReader(blob.subarray(MAGIC.length), fail);
  if (reader.uint32() !== 1) throw new InvalidInputError(INVALID_SSH_SIGNATURE);
  let publicKey: Uint8Array;
  try {
    publicKey = parseSshPublicKeyBlob(reader.string());
  } catch {
    throw new InvalidInputError(INVALID_SSH_SIGNATURE);
  }
  const namespace = reader.text();
  reader.string();
  reader.string();
  const inner = new SshReader(reader.string(), fail);
  if (inner.text() !== 'ssh-ed25519') throw new InvalidInputError(INVALID_SSH_SIGNATURE);
  const signature = inner.string();
  if (signature.length !== 64 || reader.remaining() !== 0) throw new InvalidInputError(INVALID_SSH_SIGNATURE);
  return { publicKey, signature: new Uint8Array(signature), namespace };
}
