import { compareUtf8, type Did, InvalidDataError, parseDid } from '@forge-httpd/identity';

/** Who may see a repository (docs/node-home.md §4.1). */
export type Visibility = { type: 'public' } | { type: 'private'; allow: Did[] };

/** A repository identity document (docs/node-home.md §4.1). */
export interface IdentityDocument {
  /** Payload id → payload JSON as stored, ids in the document's (sorted) order. */
  payloads: Record<string, unknown>;
  /** Delegates in document order, duplicates removed. */
  delegates: Did[];
  threshold: number;
  visibility: Visibility;
  /** 1 when the document omits it. */
  version: number;
}

const MAX_DELEGATES = 255;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Parses the `embeds/radicle.json` blob of an identity revision (docs/node-home.md §4.1):
 * delegates are DIDs (deduplicated, order kept), 1 ≤ threshold ≤ delegates, visibility
 * defaults to public, unknown top-level keys are ignored.
 * @throws InvalidDataError when the document violates those rules
 */
export function parseIdentityDocument(bytes: Buffer): IdentityDocument {
  let doc: unknown;
  try {
    doc = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new InvalidDataError('identity document', 'identity document is not JSON');
  }
  if (!isObject(doc)) throw new InvalidDataError('identity document', 'identity document is not an object');
  const delegates = parseDelegates(doc['delegates']);
  const threshold = doc['threshold'];
  if (!Number.isInteger(threshold) || (threshold as number) < 1 || (threshold as number) > delegates.length) {
    throw new InvalidDataError('identity document', 'identity document threshold is out of range');
  }
  const version = doc['version'] ?? 1;
  if (!Number.isInteger(version) || (version as number) < 1) {
    throw new InvalidDataError('identity document', 'identity document version is unsupported');
  }
  return {
    payloads: parsePayloads(doc['payload']),
    delegates,
    threshold: threshold as number,
    visibility: parseVisibility(doc['visibility']),
    version: version as number,
  };
}

function parseDidList(value: unknown, what: string): Did[] {
  if (!Array.isArray(value)) throw new InvalidDataError('identity document', `identity document ${what} is not a list`);
  const dids = new Set<Did>();
  for (const item of value) {
    try {
      dids.add(parseDid(String(item)));
    } catch {
      throw new InvalidDataError('identity document', `identity document ${what} holds a malformed DID`);
    }
  }
  return [...dids];
}

function parseDelegates(value: unknown): Did[] {
  const delegates = parseDidList(value, 'delegates');
  if (delegates.length === 0 || delegates.length > MAX_DELEGATES) {
    throw new InvalidDataError('identity document', 'identity document needs 1 to 255 delegates');
  }
  return delegates;
}

function parsePayloads(value: unknown): Record<string, unknown> {
  if (value === undefined) return {};
  if (!isObject(value)) throw new InvalidDataError('identity document', 'identity document payload is not an object');
  // The stored document is canonical JSON, so this is the stored order too.
  const ids = Object.keys(value).sort(compareUtf8);
  return Object.fromEntries(ids.map((id) => [id, value[id]]));
}

function parseVisibility(value: unknown): Visibility {
  if (value === undefined) return { type: 'public' };
  if (isObject(value) && value['type'] === 'public') return { type: 'public' };
  if (isObject(value) && value['type'] === 'private') {
    const allow = value['allow'] === undefined ? [] : parseDidList(value['allow'], 'visibility allow list');
    // A set in heartwood, ordered by key; DID text order is key order.
    return { type: 'private', allow: allow.sort(compareUtf8) };
  }
  throw new InvalidDataError('identity document', 'identity document visibility is malformed');
}
