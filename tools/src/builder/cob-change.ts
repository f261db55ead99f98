import { armorSshSignature, canonicalJson, signBytes, type KeyPair } from '@forge-httpd/identity';
import type { Oid, TreeEntryInput } from '@forge-httpd/storage';
import { utcSignature, writeBlob, writeCommit, writeTree } from './objects.js';

/** Everything that determines a COB change commit (storage-format §6). */
export interface ChangeInput {
  readonly gitDir: string;
  readonly keyPair: KeyPair;
  /** Author line name; heartwood takes it from the storage repo's `user.name` (the alias). */
  readonly alias: string;
  /** Commit time in seconds (offset `+0000`). */
  readonly time: number;
  readonly typeName: string;
  readonly actions: readonly unknown[];
  readonly message: string;
  /** Current tips of the object (empty when creating it). */
  readonly tips?: readonly Oid[];
  /** Git objects the actions depend on (`Rad-Related`). */
  readonly related?: readonly Oid[];
  /** Identity head the change was authorised against (`Rad-Resource`); none for identity changes. */
  readonly resource?: Oid;
  /** Files for the `embeds/` tree. */
  readonly embeds?: readonly { readonly name: string; readonly oid: Oid }[];
}

/**
 * Writes one COB change commit byte-for-byte like heartwood (storage-format §6.1, §6.2, §6.4):
 * tree of `manifest`, numbered canonical-JSON actions and `embeds/`; parents tips ++ related ++
 * resource; `gpgsig` SSHSIG armor of the Ed25519 signature over the 20 raw tree-oid bytes;
 * trimmed message plus `Rad-Related`/`Rad-Resource` trailers.
 * @param input - the change
 * @returns the change commit id
 */
export async function writeChange(input: ChangeInput): Promise<Oid> {
  const tree = await writeChangeTree(input);
  const signature = signBytes(input.keyPair, Buffer.from(tree, 'hex'));
  const related = [...new Set(input.related ?? [])].sort();
  const tips = [...(input.tips ?? [])].sort();
  const parents = [...tips, ...related, ...(input.resource === undefined ? [] : [input.resource])];
  const person = utcSignature(input.alias, `${input.alias}@${input.keyPair.nid}`, input.time);
  return writeCommit(input.gitDir, {
    tree,
    parents,
    author: person,
    committer: person,
    headers: [{ name: 'gpgsig', value: armorSshSignature(input.keyPair.publicKey, signature) }],
    message: changeMessage(input.message, related, input.resource),
  });
}

function changeMessage(message: string, related: readonly Oid[], resource: Oid | undefined): string {
  const trailers = [
    ...related.map((oid) => `Rad-Related: ${oid}`),
    ...(resource === undefined ? [] : [`Rad-Resource: ${resource}`]),
  ];
  const body = `${message.trim()}\n`;
  return trailers.length === 0 ? body : `${body}\n${trailers.join('\n')}\n`;
}

async function writeChangeTree(input: ChangeInput): Promise<Oid> {
  if (input.actions.length === 0 || input.actions.length > 128) throw new Error('a change holds 1–128 actions');
  // The manifest is plain serde_json, not canonical: field order typeName, version.
  const manifest = JSON.stringify({ typeName: input.typeName, version: 1 });
  const entries: TreeEntryInput[] = [{ name: 'manifest', mode: '100644', oid: await writeBlob(input.gitDir, manifest) }];
  for (const [index, action] of input.actions.entries()) {
    entries.push({ name: String(index), mode: '100644', oid: await writeBlob(input.gitDir, canonicalJson(action)) });
  }
  if (input.embeds !== undefined && input.embeds.length > 0) {
    const embedEntries = input.embeds.map((embed) => ({ name: embed.name, mode: '100644' as const, oid: embed.oid }));
    entries.push({ name: 'embeds', mode: '40000', oid: await writeTree(input.gitDir, embedEntries) });
  }
  return writeTree(input.gitDir, entries);
}
