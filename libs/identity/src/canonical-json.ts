/** A value canonicalJson can encode. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue | undefined };

const SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\t': '\\t',
  '\n': '\\n',
  '\f': '\\f',
  '\r': '\\r',
};

/**
 * Encodes a value as heartwood canonical JSON (docs/node-home.md §4.2), used for identity documents
 * and every COB action blob: no whitespace; object keys ordered by the UTF-8 bytes of the quoted,
 * escaped key (so `"a!"` sorts before `"a"`); strings NFC-normalised with minimal escapes;
 * integers only. Object properties whose value is `undefined` are omitted (serde's skip).
 * @param value - plain JSON data
 * @returns the canonical text
 * @throws TypeError for floats, non-finite or unsafe numbers, lone surrogates,
 *   `undefined` in arrays and non-plain objects
 */
export function canonicalJson(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return encodeInteger(value);
    case 'bigint':
      return value.toString();
    case 'string':
      return encodeString(value);
    case 'object':
      return Array.isArray(value) ? encodeArray(value) : encodeObject(value);
    default:
      throw new TypeError(`canonical JSON cannot encode a ${typeof value}`);
  }
}

function encodeInteger(value: number): string {
  if (!Number.isSafeInteger(value)) throw new TypeError(`canonical JSON allows integers only, got ${value}`);
  return Object.is(value, -0) ? '0' : String(value);
}

function encodeString(value: string): string {
  if (/\p{Surrogate}/u.test(value)) throw new TypeError('canonical JSON cannot encode a lone surrogate');
  const escaped = value.normalize('NFC').replace(/["\\\u0000-\u001f]/g, (c) => SHORT_ESCAPES[c] ?? '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
  return `"${escaped}"`;
}

function encodeArray(items: unknown[]): string {
  const parts = items.map((item) => {
    if (item === undefined) throw new TypeError('canonical JSON cannot encode undefined in an array');
    return canonicalJson(item);
  });
  return `[${parts.join(',')}]`;
}

function encodeObject(object: object): string {
  const prototype = Object.getPrototypeOf(object) as unknown;
  if (prototype !== Object.prototype && prototype !== null) {
    throw new TypeError('canonical JSON encodes plain objects only');
  }
  const members = Object.entries(object)
    .filter(([, member]) => member !== undefined)
    .map(([key, member]) => {
      const quoted = encodeString(key);
      return { sortKey: Buffer.from(quoted, 'utf8'), text: `${quoted}:${canonicalJson(member)}` };
    })
    .sort((a, b) => Buffer.compare(a.sortKey, b.sortKey));
  return `{${members.map((m) => m.text).join(',')}}`;
}
