import { InvalidInputError, type KeyPair, signBytes } from '@forge-httpd/identity';
import type { Oid } from '../git/objects/oid.js';
import { GitProcesses, type GitTarget } from '../git/processes/git-processes.js';
import { runGit } from '../git/processes/run-git.js';
import { serializeCommit } from '../git/format/serialize-commit.js';
import { serializeTree } from '../git/format/serialize-tree.js';
import { parseCommit } from '../git/format/parse-commit.js';
import { parseTree } from '../git/format/parse-tree.js';
import { PackedRefsFile, readLooseObject } from '../git/objects/loose-files.js';
import { listRefsUncached } from '../git/refs/ref-reader.js';
import { type DirectRefUpdate, updateRefs } from '../git/write/update-refs.js';
import { writeObject } from '../git/write/write-object.js';
import { formatSignedRefs, SIGREFS_PARENT_REF, SIGREFS_REF } from './format-signed-refs.js';

/** Inputs of {@link writeSignedRefs}. */
export interface WriteSignedRefsOptions {
  /** The storage repository. */
  gitDir: string;
  /** The namespace owner; signs the refs. */
  keyPair: KeyPair;
  /** Commit time in seconds (`GIT_COMMITTER_DATE` semantics: offset `+0000`). */
  time: number;
  /**
   * Namespace-relative refs to sign. Default: the namespace's current refs in the signed
   * categories (heads, tags, notes, rad, cobs), symbolic refs resolved.
   */
  refs?: ReadonlyMap<string, Oid> | Iterable<[string, Oid]>;
  /** Previous sigrefs commit; default: the namespace's current `refs/rad/sigrefs`; null: none. */
  parent?: Oid | null;
  /** Also sign `refs/rad/sigrefs-parent <parent>` like Radicle ≥ 1.7 (§5 [newer]). */
  parentLine?: boolean;
  /**
   * Refs of the namespace to move in the same transaction as `refs/rad/sigrefs` (full names),
   * signed with their new values: a COB write moves its object's ref and re-signs at once.
   */
  alongside?: readonly DirectRefUpdate[];
  /** The processes git runs under (default: its own, for a one-off write). */
  processes?: GitProcesses;
}

const SIGNED_CATEGORIES: ReadonlySet<string> = new Set(['heads', 'tags', 'notes', 'rad', 'cobs']);
const MESSAGE = 'Update signed refs\n';

/**
 * Signs a peer's refs and stores the sigrefs commit (docs/node-home.md §5): a tree with the
 * `refs` blob and the raw 64-byte `signature` blob, authored `radicle <nid> <time> +0000`,
 * then points `refs/namespaces/<nid>/refs/rad/sigrefs` at it. When the refs equal those of
 * the parent, nothing is written and the parent is returned (heartwood writes a new commit
 * only when the signature changes).
 * @returns the sigrefs commit id
 */
export async function writeSignedRefs(options: WriteSignedRefsOptions): Promise<Oid> {
  const { gitDir, keyPair } = options;
  const at: GitTarget = { gitDir, processes: options.processes ?? new GitProcesses() };
  const namespace = `refs/namespaces/${keyPair.nid}/`;
  const alongside = options.alongside ?? [];
  const current = await listNamespaceRefs(at, namespace);
  for (const update of alongside) {
    if (!update.name.startsWith(namespace)) throw new InvalidInputError('Invalid alongside ref: expected a ref of the signing namespace');
    current.set(update.name.slice(namespace.length), update.oid);
  }
  const parent = options.parent === undefined ? (current.get(SIGREFS_REF) ?? null) : options.parent;
  const refs = new Map(options.refs ?? signedCategoryRefs(current));
  refs.delete(SIGREFS_PARENT_REF);
  if (parent !== null && (await parentRefsEqual(at, parent, formatSignedRefs(refs)))) {
    if (alongside.length > 0) await updateRefs(gitDir, alongside, at.processes);
    return parent;
  }
  if (parent !== null && options.parentLine) refs.set(SIGREFS_PARENT_REF, parent);
  const commit = await writeSignedRefsCommit({ gitDir, keyPair, refs, parent, time: options.time });
  await updateRefs(gitDir, [...alongside, { name: `${namespace}${SIGREFS_REF}`, oid: commit }], at.processes);
  return commit;
}

/**
 * Writes the objects of one sigrefs commit (docs/node-home.md §5) over exactly `refs`: the
 * `refs` blob, the raw 64-byte `signature` blob, their tree and the commit authored `radicle
 * <nid> <time> +0000`. No ref is read or moved (writers that lay refs out themselves, like the
 * benchmark's bulk repository writer, point `refs/rad/sigrefs` at the result).
 * @returns the commit id
 */
export async function writeSignedRefsCommit(input: {
  gitDir: string;
  keyPair: KeyPair;
  refs: ReadonlyMap<string, Oid>;
  parent: Oid | null;
  time: number;
}): Promise<Oid> {
  const { gitDir, keyPair } = input;
  const refsBlob = formatSignedRefs(input.refs);
  const signature = Buffer.from(signBytes(keyPair, refsBlob));
  const tree = await writeObject(
    gitDir,
    'tree',
    serializeTree([
      { name: 'refs', mode: '100644', oid: await writeObject(gitDir, 'blob', refsBlob) },
      { name: 'signature', mode: '100644', oid: await writeObject(gitDir, 'blob', signature) },
    ]),
  );
  const person = { name: 'radicle', email: keyPair.nid, time: input.time, offset: '+0000' };
  const parents = input.parent === null ? [] : [input.parent];
  return writeObject(gitDir, 'commit', serializeCommit({ tree, parents, author: person, committer: person, message: MESSAGE }));
}

/**
 * The namespace's refs with names relative to it, symbolic refs resolved: from the ref files
 * when they tell exactly (a writer's usual case, without starting a process), else by git.
 */
async function listNamespaceRefs(at: GitTarget, namespace: string): Promise<Map<string, Oid>> {
  const { entries } = await listRefsUncached(at, new PackedRefsFile(at.gitDir), `${namespace}refs/`);
  return new Map(entries.map(({ name, oid }) => [name.slice(namespace.length), oid]));
}

function signedCategoryRefs(current: Map<string, Oid>): Map<string, Oid> {
  const refs = new Map<string, Oid>();
  for (const [name, oid] of current) {
    const category = name.split('/')[1];
    if (category !== undefined && SIGNED_CATEGORIES.has(category)) refs.set(name, oid);
  }
  return refs;
}

async function parentRefsEqual(at: GitTarget, parent: Oid, refsBlob: Buffer): Promise<boolean> {
  const signed = (await parentRefsBlob(at, parent))?.toString('utf8');
  if (signed === undefined) return false;
  const withoutParentLine = signed
    .split('\n')
    .filter((line) => !line.endsWith(` ${SIGREFS_PARENT_REF}`))
    .join('\n');
  return withoutParentLine === refsBlob.toString('utf8');
}

/** The `refs` blob of a sigrefs commit: from its loose objects when they are all there, else by git; undefined when absent. */
async function parentRefsBlob(at: GitTarget, parent: Oid): Promise<Buffer | undefined> {
  const commit = readLooseObject(at.gitDir, parent);
  const tree = commit?.type === 'commit' ? readLooseObject(at.gitDir, parseCommit(parent, commit.data).tree) : null;
  const entry = tree?.type === 'tree' ? parseTree(tree.data).find((e) => e.name === 'refs') : undefined;
  const blob = entry === undefined ? null : readLooseObject(at.gitDir, entry.oid);
  if (blob?.type === 'blob') return blob.data;
  const { stdout, exitCode } = await runGit({
    ...at,
    args: ['cat-file', 'blob', `${parent}:refs`],
    okExitCodes: [0, 128],
  });
  return exitCode === 0 ? stdout : undefined;
}
