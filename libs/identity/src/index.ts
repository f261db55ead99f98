export type { Did, Nid, Rid } from './brands.js';
export {
  BusyError,
  type ErrorCode,
  ForbiddenError,
  InvalidDataError,
  InvalidInputError,
  LockedError,
  NotFoundError,
  ProcessFailedError,
  RejectedError,
  type Tolerance,
  TooLargeError,
} from './error-kinds.js';
export { decodeMultibase, encodeMultibase } from './multibase.js';
export { nidFromPublicKey, parseNid, publicKeyFromNid } from './nid.js';
export { didFromNid, nidFromDid, parseDid } from './did.js';
export { compareRids, oidHexFromRid, parseRid, ridDirectoryName, ridFromOid, sortRids } from './rid.js';
export { compareUtf8 } from './compare-utf8.js';
export { keyPairFromSeed, signBytes, verifySignature, verifySignatureOffThread } from './key-pair.js';
export type { KeyPair } from './key-pair.js';
export { formatSshPublicKey, parseSshPublicKeyBlob, parseSshPublicKeyLine, sshFingerprint, sshPublicKeyBlob } from './ssh-public-key.js';
export { decodeOpenSshPrivateKey, encodeOpenSshPrivateKey } from './openssh-private-key.js';
export { armorSshSignature, parseSshSignatureArmor } from './ssh-signature.js';
export type { SshSignature } from './ssh-signature.js';
export { canonicalJson } from './canonical-json.js';
export type { JsonValue } from './canonical-json.js';
export { readNodePublicKey, writeKeyFiles } from './key-files.js';
