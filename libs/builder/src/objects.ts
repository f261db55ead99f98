import { type GitSignature, type Oid } from '@forge-httpd/storage';
import { serializeCommit, serializeTree, writeObject, type CommitInput, type TreeEntryInput } from '@forge-httpd/storage/write';

/** Writes a blob (text as UTF-8) and returns its id. */
export function writeBlob(gitDir: string, content: string | Uint8Array): Promise<Oid> {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  return writeObject(gitDir, 'blob', bytes);
}

/** Writes a tree from its entries (any order) and returns its id. */
function writeTree(gitDir: string, entries: readonly TreeEntryInput[]): Promise<Oid> {
  return writeObject(gitDir, 'tree', serializeTree(entries));
}

/** Writes a commit with exactly the given fields and returns its id. */
export function writeCommit(gitDir: string, input: CommitInput): Promise<Oid> {
  return writeObject(gitDir, 'commit', serializeCommit(input));
}

/** A git signature with offset `+0000` (what `GIT_COMMITTER_DATE=<int>` gives, §6.3). */
export function utcSignature(name: string, email: string, time: number): GitSignature {
  return { name, email, time, offset: '+0000' };
}

/** A file of a generated tree: text or bytes, optionally executable. */
export type FileContent = string | Uint8Array | { readonly content: string | Uint8Array; readonly executable: true };

/**
 * Writes nested trees for a map of slash-separated paths to contents and returns the root tree
 * id (the empty map gives the empty tree).
 * @param gitDir - repository
 * @param files - `{"src/main.ts": "…", "bin/run": {content, executable: true}}`
 * @returns root tree id
 */
export async function writeFileTree(gitDir: string, files: Readonly<Record<string, FileContent>>): Promise<Oid> {
  const entries: TreeEntryInput[] = [];
  const subdirectories = new Map<string, Record<string, FileContent>>();
  for (const [filePath, content] of Object.entries(files)) {
    const slash = filePath.indexOf('/');
    if (slash >= 0) {
      const directory = filePath.slice(0, slash);
      const children = subdirectories.get(directory) ?? {};
      children[filePath.slice(slash + 1)] = content;
      subdirectories.set(directory, children);
      continue;
    }
    const executable = typeof content === 'object' && 'executable' in content;
    const bytes = executable ? content.content : content;
    entries.push({ name: filePath, mode: executable ? '100755' : '100644', oid: await writeBlob(gitDir, bytes) });
  }
  for (const [directory, children] of subdirectories) {
    entries.push({ name: directory, mode: '40000', oid: await writeFileTree(gitDir, children) });
  }
  return writeTree(gitDir, entries);
}
