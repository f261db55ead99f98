/** The typed view of the `xyz.<flavour>.project` payload (docs/node-home.md §4.1). */
export interface ProjectPayload {
  name: string;
  description: string;
  defaultBranch: string;
}

/** The rule patterns and symbolic refs of an `xyz.<flavour>.crefs` payload (§3.4). */
export interface CanonicalRefsPayload {
  /** Rule patterns (qualified ref names, `*` allowed), in payload order. */
  patterns: string[];
  /** `symbolic` map, e.g. `HEAD` → `refs/heads/master`. */
  symbolic: Record<string, string>;
}

const MAX_BYTES = 255;
const NAME_PATTERN = /^[\p{Alphabetic}\p{N}._-]+$/u;

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Validates a project payload: `name` 1–255 bytes of alphanumerics and `-_.`, `description`
 * at most 255 bytes, `defaultBranch` 1–255 bytes. Extra fields are ignored.
 * @returns the typed view, or null when the payload is not a valid project
 */
export function parseProjectPayload(value: unknown): ProjectPayload | null {
  if (!isObject(value)) return null;
  const { name, description, defaultBranch } = value;
  if (typeof name !== 'string' || !NAME_PATTERN.test(name) || byteLength(name) > MAX_BYTES) return null;
  if (typeof description !== 'string' || byteLength(description) > MAX_BYTES) return null;
  if (typeof defaultBranch !== 'string' || defaultBranch === '' || byteLength(defaultBranch) > MAX_BYTES) {
    return null;
  }
  return { name, description, defaultBranch };
}

/**
 * Reads the canonical-refs rules payload (§3.4): patterns must be qualified (`refs/…`) and not
 * under `refs/rad`; rule values must be objects.
 * @returns null when the payload is malformed (callers then show no canonical refs)
 */
export function parseCanonicalRefsPayload(value: unknown): CanonicalRefsPayload | null {
  if (!isObject(value) || !isObject(value['rules'])) return null;
  const patterns: string[] = [];
  for (const [pattern, rule] of Object.entries(value['rules'])) {
    if (!pattern.startsWith('refs/') || pattern.startsWith('refs/rad/') || !isObject(rule)) return null;
    patterns.push(pattern);
  }
  const symbolic: Record<string, string> = {};
  const rawSymbolic = value['symbolic'] ?? {};
  if (!isObject(rawSymbolic)) return null;
  for (const [name, target] of Object.entries(rawSymbolic)) {
    if (typeof target !== 'string') return null;
    symbolic[name] = target;
  }
  return { patterns, symbolic };
}
