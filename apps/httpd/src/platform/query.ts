import { InvalidInputError } from '@forge-httpd/identity';
import { Injectable, type PipeTransform } from '@nestjs/common';
import { type Oid, parseOid } from '@forge-httpd/storage';

/**
 * Kind of a query parameter: `uint` (page, perPage), `int` (since, until: i64 seconds),
 * `oid`, free `string`, `text` (1 to 256 characters: a search or filter), `path` (1 to 4,096
 * characters: a path in a tree), or a list of allowed values.
 */
export type QueryKind = 'uint' | 'int' | 'oid' | 'string' | 'text' | 'path' | readonly string[];

/** Characters (code points) a `text` and a `path` query value may hold. */
const TEXT_MAX_CHARS = { text: 256, path: 4096 } as const;

/** Known keys of a route's query and their kinds; other keys are ignored. */
export type QuerySchema = Readonly<Record<string, QueryKind>>;

/** The parsed query: every known key, `undefined` when absent. */
export type ParsedQuery<S extends QuerySchema> = {
  [K in keyof S]?: S[K] extends 'uint' | 'int' ? number : S[K] extends 'oid' ? Oid : S[K] extends readonly (infer V)[] ? V : string;
};

const MAX_UINT = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_I64 = -(2n ** 63n);
const MAX_I64 = 2n ** 63n - 1n;

function parseUint(key: string, text: string): number {
  if (!/^[0-9]+$/.test(text) || BigInt(text) > MAX_UINT) {
    throw new InvalidInputError(`Invalid ${key}: expected a non-negative integer`);
  }
  return Number(text);
}

function parseInt64(key: string, text: string): number {
  if (!/^-?[0-9]+$/.test(text)) throw new InvalidInputError(`Invalid ${key}: expected an integer`);
  const value = BigInt(text);
  if (value < MIN_I64 || value > MAX_I64) {
    throw new InvalidInputError(`Invalid ${key}: expected a 64-bit integer`);
  }
  // Number() rounds monotonically, so comparisons with real (safe-integer) times stay exact.
  return Number(value);
}

function parseChoice(key: string, text: string, allowed: readonly string[]): string {
  if (!allowed.includes(text)) {
    const list = allowed.length > 1 ? `${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}` : allowed[0];
    throw new InvalidInputError(`Invalid ${key}: expected ${list}`);
  }
  return text;
}

/** A value of 1 to `max` characters, without NUL (which no git argument can hold). */
function parseText(key: string, text: string, max: number): string {
  // Counted in code points; a value of more than 2 × max UTF-16 units has more than max.
  const count = text.length > 2 * max ? max + 1 : Array.from(text).length;
  if (count === 0 || count > max || text.includes('\0')) throw new InvalidInputError(`Invalid ${key}: expected 1 to ${max} characters, without NUL`);
  return text;
}

function parseValue(key: string, text: string, kind: QueryKind): unknown {
  switch (kind) {
    case 'uint':
      return parseUint(key, text);
    case 'int':
      return parseInt64(key, text);
    case 'oid':
      return parseOid(text, key);
    case 'string':
      return text;
    case 'text':
    case 'path':
      return parseText(key, text, TEXT_MAX_CHARS[kind]);
    default:
      return parseChoice(key, text, kind);
  }
}

/**
 * Parses a query object as Fastify hands it over (repeated keys become arrays) against a
 * schema (docs/decisions.md "Errors"): a repeated known key, an empty or malformed numeric
 * value, an unknown choice or a malformed oid is a 400 naming the key; unknown keys are ignored.
 * @throws InvalidInputError
 */
export function parseQuery<S extends QuerySchema>(query: unknown, schema: S): ParsedQuery<S> {
  const source = (typeof query === 'object' && query !== null ? query : {}) as Record<string, unknown>;
  const parsed: Record<string, unknown> = {};
  for (const [key, kind] of Object.entries(schema)) {
    if (!Object.hasOwn(source, key)) continue;
    const raw = source[key];
    if (Array.isArray(raw)) throw new InvalidInputError(`Invalid ${key}: given more than once`);
    parsed[key] = parseValue(key, typeof raw === 'string' ? raw : '', kind);
  }
  return parsed as ParsedQuery<S>;
}

/**
 * Pipe form of {@link parseQuery}:
 * `@Query(new QueryPipe({ page: 'uint', perPage: 'uint' })) query`.
 */
@Injectable()
export class QueryPipe<S extends QuerySchema> implements PipeTransform<unknown, ParsedQuery<S>> {
  constructor(private readonly schema: S) {}

  transform(value: unknown): ParsedQuery<S> {
    return parseQuery(value, this.schema);
  }
}

/** Schema fragment of the pagination keys. */
export const PAGE_QUERY = { page: 'uint', perPage: 'uint' } as const;
