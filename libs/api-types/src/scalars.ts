/**
 * Scalar building blocks shared by the schemas: integers, ids and their patterns. The patterns
 * are the forms the server writes (and parses in path parameters), so a client can rely on them.
 */
import * as v from 'valibot';

/** A JSON integer (counts, line numbers). */
export const integerSchema = v.pipe(v.number(), v.integer());

/** A non-negative JSON integer. */
export const countSchema = v.pipe(v.number(), v.integer(), v.minValue(0));

/** Seconds since the epoch. */
export const timestampSchema = v.pipe(v.number(), v.integer(), v.description('seconds since the epoch'));

/** A git object id: 40 lower-case hex digits (SHA-1). */
export const OID_PATTERN = /^[0-9a-f]{40}$/;
export const oidSchema = v.pipe(v.string(), v.regex(OID_PATTERN), v.description('git object id (40 hex)'));

/** A repository id: `rad:z` + base58btc (multibase) of 20 bytes. */
export const RID_PATTERN = /^rad:z[1-9A-HJ-NP-Za-km-z]+$/;
export const ridSchema = v.pipe(v.string(), v.regex(RID_PATTERN), v.description('repository id (rad:z…)'));

/** A node id: `z6Mk…`, multibase base58btc of a multicodec ed25519 public key. */
export const NID_PATTERN = /^z6Mk[1-9A-HJ-NP-Za-km-z]+$/;
export const nidSchema = v.pipe(v.string(), v.regex(NID_PATTERN), v.description('node id (z6Mk…)'));

/** A DID: `did:key:` + a node id. */
export const DID_PATTERN = /^did:key:z6Mk[1-9A-HJ-NP-Za-km-z]+$/;
export const didSchema = v.pipe(v.string(), v.regex(DID_PATTERN), v.description('did:key of a node'));
