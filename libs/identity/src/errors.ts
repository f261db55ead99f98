/**
 * Typed errors of @forge-httpd/identity. Every class carries a stable `code`; messages of the
 * `INVALID_*` errors are safe to show to API clients (they name the parameter and the expected
 * form, never the offending input or a path).
 */

/** A text that should be a Node ID (`z6Mk…`) is not one. */
export class InvalidNidError extends Error {
  readonly code = 'INVALID_NID';
  constructor(message = 'Invalid nid: expected z6Mk… (multibase ed25519 public key)') {
    super(message);
    this.name = 'InvalidNidError';
  }
}

/** A text that should be a DID (`did:key:z6Mk…`) is not one. */
export class InvalidDidError extends Error {
  readonly code = 'INVALID_DID';
  constructor(message = 'Invalid did: expected did:key:z6Mk…') {
    super(message);
    this.name = 'InvalidDidError';
  }
}

/** A text that should be a Repository ID (`rad:z…`) is not one. */
export class InvalidRidError extends Error {
  readonly code = 'INVALID_RID';
  constructor(message = 'Invalid rid: expected rad:z… (base58 of 20 bytes)') {
    super(message);
    this.name = 'InvalidRidError';
  }
}

/** A multibase text is not `z` + base58btc. */
export class InvalidMultibaseError extends Error {
  readonly code = 'INVALID_MULTIBASE';
  constructor(message = 'Invalid multibase: expected z followed by base58btc') {
    super(message);
    this.name = 'InvalidMultibaseError';
  }
}

/** An OpenSSH public key line, private key file or key seed is malformed. */
export class InvalidSshKeyError extends Error {
  readonly code = 'INVALID_SSH_KEY';
  constructor(message = 'Invalid ssh key: expected an unencrypted ssh-ed25519 key') {
    super(message);
    this.name = 'InvalidSshKeyError';
  }
}

/** An armored SSH signature (SSHSIG) is malformed or not ssh-ed25519. */
export class InvalidSshSignatureError extends Error {
  readonly code = 'INVALID_SSH_SIGNATURE';
  constructor(message = 'Invalid ssh signature: expected an ssh-ed25519 SSHSIG armor') {
    super(message);
    this.name = 'InvalidSshSignatureError';
  }
}

/**
 * A value cannot be encoded as canonical JSON (float, non-finite number, lone surrogate,
 * undefined in an array, non-plain object). A programming error, hence not `INVALID_*`.
 */
export class CanonicalJsonError extends Error {
  readonly code = 'CANONICAL_JSON_UNSUPPORTED';
  constructor(message: string) {
    super(message);
    this.name = 'CanonicalJsonError';
  }
}
