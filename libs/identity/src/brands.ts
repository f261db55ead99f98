/**
 * Branded identifier strings. Values of these types are only produced by the `parse*` and
 * `*From*` functions of this library, so holding one means the text was validated.
 */

/** Node ID: `z` + base58btc(0xED 0x01 ‖ 32-byte Ed25519 public key), docs/node-home.md §2.2. */
export type Nid = string & { readonly __brand: 'Nid' };

/** Decentralised identifier of a node: `did:key:` + NID, docs/node-home.md §2.2. */
export type Did = string & { readonly __brand: 'Did' };

/** Repository ID in canonical text form `rad:z…` (20 bytes), docs/node-home.md §2.3. */
export type Rid = string & { readonly __brand: 'Rid' };
