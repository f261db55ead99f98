/**
 * Readers for decoded action JSON that behave like the node's serde derives: unknown keys are
 * ignored, a missing or `null` optional field is "none", a missing required field or a wrong
 * type rejects the whole change ({@link RejectedError}).
 */
import { RejectedError } from '@forge-httpd/identity';
import type { Oid } from '@forge-httpd/storage';

/** A decoded JSON object. */
export type JsonObject = Readonly<Record<string, unknown>>;

const OID_PATTERN = /^[0-9a-fA-F]{40}$/;

/** Returns the value as an object or rejects. */
export function asObject(value: unknown, what: string): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RejectedError(`${what}: expected an object`);
  }
  return value as JsonObject;
}

/** Reads a required string field. */
export function readString(object: JsonObject, key: string): string {
  const value = object[key];
  if (typeof value !== 'string') throw new RejectedError(`field ${key}: expected a string`);
  return value;
}

/** Reads an optional string field (`Option<String>`). */
export function readOptionalString(object: JsonObject, key: string): string | null {
  const value = object[key];
  return value === undefined || value === null ? null : readString(object, key);
}

/** Reads a required boolean field. */
export function readBoolean(object: JsonObject, key: string): boolean {
  const value = object[key];
  if (typeof value !== 'boolean') throw new RejectedError(`field ${key}: expected a boolean`);
  return value;
}

/** Reads a required non-negative integer field (`usize`). */
export function readUnsigned(object: JsonObject, key: string): number {
  const value = object[key];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new RejectedError(`field ${key}: expected a non-negative integer`);
  }
  return value;
}

/** Parses an oid value (40 hex digits, output lower case). */
export function toOid(value: unknown, what: string): Oid {
  if (typeof value !== 'string' || !OID_PATTERN.test(value)) throw new RejectedError(`${what}: expected an oid`);
  return value.toLowerCase() as Oid;
}

/** Reads a required oid field. */
export function readOid(object: JsonObject, key: string): Oid {
  return toOid(object[key], `field ${key}`);
}

/** Reads an optional oid field (`Option<Oid>`). */
export function readOptionalOid(object: JsonObject, key: string): Oid | null {
  const value = object[key];
  return value === undefined || value === null ? null : toOid(value, `field ${key}`);
}

/** Reads a required array field (`Vec<T>` without a serde default). */
export function readArray(object: JsonObject, key: string): readonly unknown[] {
  const value = object[key];
  if (!Array.isArray(value)) throw new RejectedError(`field ${key}: expected an array`);
  return value;
}

/** Reads an array field that defaults to empty when missing (`#[serde(default)] Vec<T>`). */
export function readDefaultArray(object: JsonObject, key: string): readonly unknown[] {
  return object[key] === undefined ? [] : readArray(object, key);
}
