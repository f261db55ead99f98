/**
 * `/repos/{rid}/cobs/{typeName}` and `/cobs/{typeName}/{id}`: the signed change log of any
 * collaborative object, evaluated by this server or not (docs/api.md, "Collaborative-object
 * change logs").
 */
import * as v from 'valibot';
import { countSchema, didSchema, oidSchema, timestampSchema } from './scalars.js';

/** A COB type name: a reverse domain name, e.g. `xyz.radicle.issue`. */
export const COB_TYPE_NAME_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/** One object of a type in the listing. */
export const cobObjectSchema = v.object({
  id: oidSchema,
  /** Changes whose signature verifies. */
  changes: countSchema,
  /** The latest timestamp among those changes. */
  updated: timestampSchema,
});
export type CobObject = v.InferOutput<typeof cobObjectSchema>;

/** One signed change. */
export const cobChangeSchema = v.object({
  id: oidSchema,
  /** Changes this one follows (commit parents minus the resource and related commits). */
  parents: v.array(oidSchema),
  /** The signer. */
  author: didSchema,
  timestamp: timestampSchema,
  manifest: v.object({ typeName: v.string(), version: countSchema }),
  /** Each action as its JSON; a blob that is not JSON as a base64 string. */
  actions: v.array(v.unknown()),
  signature: v.object({ key: didSchema, sig: v.pipe(v.string(), v.base64()) }),
});
export type CobChange = v.InferOutput<typeof cobChangeSchema>;

/** One object's change log, parents before children, ties by id. */
export const cobChangeLogSchema = v.object({
  typeName: v.string(),
  id: oidSchema,
  changes: v.array(cobChangeSchema),
});
export type CobChangeLog = v.InferOutput<typeof cobChangeLogSchema>;
