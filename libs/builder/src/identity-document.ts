import { canonicalJson, type Did } from '@forge-httpd/identity';
import { payloadId, type Flavour } from '@forge-httpd/storage';

/** The typed project payload (`xyz.<flavour>.project`, docs/node-home.md §4.1). */
export interface ProjectPayload {
  readonly name: string;
  readonly description: string;
  readonly defaultBranch: string;
}

/** One canonical-refs rule (§3.4): who may vote and how many must agree. */
export interface CanonicalRefRule {
  readonly allow: 'delegates' | readonly Did[];
  readonly threshold: number;
}

/** The `xyz.<flavour>.crefs` payload (§3.4). */
export interface CanonicalRefsPayload {
  readonly rules: Readonly<Record<string, CanonicalRefRule>>;
  readonly symbolic?: Readonly<Record<string, string>>;
}

/** Repository visibility (§4.1). */
export type Visibility = { readonly type: 'public' } | { readonly type: 'private'; readonly allow?: readonly Did[] };

/** Everything an identity document holds. */
export interface IdentityDocumentSpec {
  readonly project: ProjectPayload;
  /** In order; the first is the founder. */
  readonly delegates: readonly Did[];
  readonly threshold: number;
  readonly visibility?: Visibility;
  readonly crefs?: CanonicalRefsPayload;
  /** Further payloads by id, kept verbatim. */
  readonly payloads?: Readonly<Record<string, unknown>>;
}

/**
 * Encodes an identity document as the canonical JSON blob heartwood stores in
 * `embeds/radicle.json` (docs/node-home.md §4.1, §4.2): duplicate delegates removed (order kept),
 * `visibility` omitted when public, a private `allow` list sorted and omitted when empty,
 * `version` omitted (1), payload ids renamed by flavour.
 * @param flavour - `radicle` keeps heartwood's payload ids
 * @param document - the document
 * @returns canonical JSON text
 * @throws Error when the threshold or the project fields are out of range
 */
export function encodeIdentityDocument(flavour: Flavour, document: IdentityDocumentSpec): string {
  const delegates = [...new Set(document.delegates)];
  if (delegates.length === 0 || document.threshold < 1 || document.threshold > delegates.length) {
    throw new Error('identity document: threshold must be between 1 and the number of delegates');
  }
  validateProject(document.project);
  const payload: Record<string, unknown> = { ...(document.payloads ?? {}) };
  payload[payloadId(flavour, 'project')] = { ...document.project };
  if (document.crefs !== undefined) payload[payloadId(flavour, 'crefs')] = document.crefs;
  return canonicalJson({
    payload,
    delegates,
    threshold: document.threshold,
    visibility: encodeVisibility(document.visibility),
  });
}

function encodeVisibility(visibility: Visibility | undefined): unknown {
  if (visibility === undefined || visibility.type === 'public') return undefined;
  const allow = [...new Set(visibility.allow ?? [])].sort();
  return allow.length === 0 ? { type: 'private' } : { type: 'private', allow };
}

function validateProject(project: ProjectPayload): void {
  if (!/^[A-Za-z0-9._-]{1,255}$/.test(project.name)) throw new Error(`invalid project name: ${project.name}`);
  if (Buffer.byteLength(project.description) > 255) throw new Error('project description exceeds 255 bytes');
  if (project.defaultBranch === '' || Buffer.byteLength(project.defaultBranch) > 255) {
    throw new Error('invalid default branch');
  }
}
