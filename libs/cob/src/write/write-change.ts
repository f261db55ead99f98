/**
 * Writes one COB change commit exactly as a node does (docs/node-home.md §6.1–6.4, §11): manifest,
 * canonical-JSON action blobs, an `embeds` tree, parents tips ++ related ++ resource, an SSHSIG
 * `gpgsig` over the raw tree oid, and the trailers. Reproduces heartwood's commit ids.
 */
import { armorSshSignature, canonicalJson, type KeyPair, signBytes } from '@forge-httpd/identity';
import { type Oid } from '@forge-httpd/storage';
import { serializeCommit, serializeTree, type TreeEntryInput, writeObject } from '@forge-httpd/storage/write';
import { compareOids } from '../dag/change-graph.js';

/** A file to embed: its bytes go into the change's `embeds/` tree. */
export interface EmbedFile {
  readonly name: string;
  readonly content: Uint8Array;
}

/** Everything that determines a change commit. */
export interface ChangeInput {
  readonly gitDir: string;
  readonly keyPair: KeyPair;
  /** The writing node's alias: author line `<alias> <<alias>@<nid>>`. */
  readonly alias: string;
  /** Commit time in seconds (`GIT_COMMITTER_DATE` semantics: offset `+0000`). */
  readonly time: number;
  readonly typeName: string;
  /** Action objects, encoded as canonical JSON (§4.2); a `Uint8Array` is written as it is (a blob that need not be JSON). */
  readonly actions: readonly unknown[];
  /** Files already referenced by `git:<oid>` in the actions. */
  readonly embeds?: readonly EmbedFile[];
  readonly message: string;
  /** Current tips of the object (empty when creating). */
  readonly tips: readonly Oid[];
  readonly related?: readonly Oid[];
  /** Identity head commit; null for identity changes. */
  readonly resource: Oid | null;
  /** Sign something other than the tree, so the signature does not verify (forged changes in tests). */
  readonly badSignature?: boolean;
}

/**
 * Writes a change commit and its tree and blobs (no ref is touched).
 * @returns the commit id (the entry id: comment id, revision id…)
 */
export async function writeChange(input: ChangeInput): Promise<Oid> {
  const { gitDir, keyPair } = input;
  const tree = await writeChangeTree(input);
  const signed = Buffer.from(tree, 'hex');
  if (input.badSignature === true) signed[0] = (signed[0] ?? 0) ^ 0xff;
  const armor = armorSshSignature(keyPair.publicKey, signBytes(keyPair, signed));
  const related = [...new Set(input.related ?? [])].sort(compareOids);
  const parents = [...[...input.tips].sort(compareOids), ...related, ...(input.resource === null ? [] : [input.resource])];
  const person = { name: input.alias, email: `${input.alias}@${keyPair.nid}`, time: input.time, offset: '+0000' };
  const trailers = [...related.map((oid) => `Rad-Related: ${oid}`), ...(input.resource === null ? [] : [`Rad-Resource: ${input.resource}`])];
  const message = `${input.message.trim()}\n${trailers.length === 0 ? '' : `\n${trailers.join('\n')}\n`}`;
  const commit = serializeCommit({ tree, parents, author: person, committer: person, headers: [{ name: 'gpgsig', value: armor }], message });
  return writeObject(gitDir, 'commit', commit);
}

async function writeChangeTree(input: ChangeInput): Promise<Oid> {
  const { gitDir } = input;
  // serde_json, not canonical: fixed field order typeName, version.
  const manifest = JSON.stringify({ typeName: input.typeName, version: 1 });
  const entries: TreeEntryInput[] = [{ name: 'manifest', mode: '100644', oid: await writeObject(gitDir, 'blob', Buffer.from(manifest)) }];
  for (const [index, action] of input.actions.entries()) {
    const bytes = action instanceof Uint8Array ? action : Buffer.from(canonicalJson(action));
    const blob = await writeObject(gitDir, 'blob', bytes);
    entries.push({ name: String(index), mode: '100644', oid: blob });
  }
  if (input.embeds !== undefined && input.embeds.length > 0) {
    // Like libgit2's tree builder, a repeated name keeps the last file.
    const byName = new Map<string, TreeEntryInput>();
    for (const embed of input.embeds) {
      byName.set(embed.name, { name: embed.name, mode: '100644', oid: await writeObject(gitDir, 'blob', embed.content) });
    }
    const files = [...byName.values()];
    entries.push({ name: 'embeds', mode: '40000', oid: await writeObject(gitDir, 'tree', serializeTree(files)) });
  }
  return writeObject(gitDir, 'tree', serializeTree(entries));
}
