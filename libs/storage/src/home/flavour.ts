/**
 * Protocol flavour (docs/decisions.md, "Protocol flavour"): `forge` renames exactly the
 * identifiers `xyz.radicle.<x>` of the project and crefs payloads and of the id, issue and
 * patch COB types to `xyz.forge.<x>`; `radicle` keeps heartwood's names.
 */
export type Flavour = 'forge' | 'radicle';

/** Every flavour, the default first. */
export const FLAVOURS: readonly Flavour[] = ['forge', 'radicle'];

/** Tells whether `text` names a flavour. */
export function isFlavour(text: unknown): text is Flavour {
  return text === 'forge' || text === 'radicle';
}

/** The identity-document payload id of this flavour: `xyz.<flavour>.project` / `.crefs`. */
export function payloadId(flavour: Flavour, payload: 'project' | 'crefs'): string {
  return `xyz.${flavour}.${payload}`;
}

/** The COB type name of this flavour: `xyz.<flavour>.id` / `.issue` / `.patch`. */
export function cobTypeName(flavour: Flavour, type: 'id' | 'issue' | 'patch'): string {
  return `xyz.${flavour}.${type}`;
}
