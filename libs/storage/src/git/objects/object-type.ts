/** The four git object types (git's object format, Documentation/technical/...). */
export type GitObjectType = 'blob' | 'tree' | 'commit' | 'tag';

const TYPES: ReadonlySet<string> = new Set(['blob', 'tree', 'commit', 'tag']);

/**
 * Tells whether `text` names a git object type.
 * @param text - candidate type name
 * @returns true for blob, tree, commit and tag
 */
export function isGitObjectType(text: string): text is GitObjectType {
  return TYPES.has(text);
}
