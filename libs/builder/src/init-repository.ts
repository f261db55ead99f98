import path from 'node:path';
import { didFromNid, ridDirectoryName, ridFromOid, type Did } from '@forge-httpd/identity';
import { cobTypeName, type Oid } from '@forge-httpd/storage';
import { initBareRepository, updateRefs } from '@forge-httpd/storage/write';
import { namespacedRef, resignRefs, type BuiltRepository } from './built-repository.js';
import { updateCanonicalHead } from './canonical-head.js';
import { writeGeneratedHistory, type GeneratedCommit, type HistoryTip } from './generated-history.js';
import { documentBlobOid, writeIdentityRoot } from './identity-cob.js';
import { encodeIdentityDocument, type CanonicalRefsPayload, type IdentityDocumentSpec } from './identity-document.js';
import { importBranches } from './import-branches.js';
import type { HomeContext } from './node-home.js';
import { recordRouting, recordSeedingPolicy } from './node-records.js';

/** Where the default branch's history comes from. */
export type HistorySource =
  | { readonly kind: 'generated'; readonly commits: readonly GeneratedCommit[] }
  | {
      readonly kind: 'import';
      /** Source repository (git dir or working tree). */
      readonly from: string;
      /** Source ref (default `refs/heads/<defaultBranch>`; `HEAD` works too). */
      readonly sourceRef?: string;
      /** Also copy the source's tags into the local namespace. */
      readonly tags?: boolean;
    };

/** Inputs of {@link initRepository} (what `rad init` is told). */
export interface InitRepositoryOptions {
  readonly name: string;
  readonly description?: string;
  readonly defaultBranch: string;
  readonly history: HistorySource;
  readonly private?: boolean | { readonly allow: readonly Did[] };
  /** A canonical-refs payload in the initial document ([newer] nodes, §3.4). */
  readonly crefs?: CanonicalRefsPayload;
}

/**
 * Initialises a repository exactly like `rad init` with `GIT_COMMITTER_DATE` set
 * (docs/node-home.md §10.2): identity root COB, the local namespace's branch, `rad/id` (symbolic),
 * `rad/root`, top-level `refs/rad/id`, canonical default branch and `HEAD`, signed refs,
 * a seeding policy (scope all) and, when public, a routing row for the local node.
 * @param context - the home
 * @param options - project, history source and visibility
 * @returns the repository state
 */
export async function initRepository(context: HomeContext, options: InitRepositoryOptions): Promise<BuiltRepository> {
  const { local, clock } = context;
  const time = clock.tick();
  const document = initialDocument(context, options);
  const documentJson = encodeIdentityDocument(context.flavour, document);
  const rid = ridFromOid(documentBlobOid(documentJson));
  const gitDir = path.join(context.home, 'storage', ridDirectoryName(rid));
  await initBareRepository(gitDir, { userName: local.alias, userEmail: `${local.alias}@${local.keyPair.nid}` });
  const author = { gitDir, flavour: context.flavour, keyPair: local.keyPair, alias: local.alias, time };
  const { root } = await writeIdentityRoot(author, documentJson);
  const { head, headTip } = await writeDefaultBranch(context, { gitDir, options });
  const nid = local.keyPair.nid;
  const cobRef = namespacedRef(nid, `refs/cobs/${cobTypeName(context.flavour, 'id')}/${root}`);
  await updateRefs(gitDir, [
    { name: cobRef, oid: root },
    { name: namespacedRef(nid, `refs/heads/${options.defaultBranch}`), oid: head },
    { name: namespacedRef(nid, 'refs/rad/root'), oid: root },
    { name: 'refs/rad/id', oid: root },
    { name: namespacedRef(nid, 'refs/rad/id'), symbolicTarget: cobRef },
  ]);
  const repo: BuiltRepository = {
    name: options.name,
    rid,
    gitDir,
    defaultBranch: options.defaultBranch,
    identityRoot: root,
    document,
    identityHead: root,
    head,
    headTip,
  };
  await updateCanonicalHead({ gitDir, delegates: [nid], threshold: 1, branch: options.defaultBranch });
  await resignRefs(context, repo, local);
  recordSeedingPolicy(context, { rid, policy: { policy: 'allow', scope: 'all' } });
  if (options.private === undefined || options.private === false) recordRouting(context, { rid, nid });
  return repo;
}

function initialDocument(context: HomeContext, options: InitRepositoryOptions): IdentityDocumentSpec {
  const privacy = options.private;
  return {
    project: { name: options.name, description: options.description ?? '', defaultBranch: options.defaultBranch },
    delegates: [didFromNid(context.local.keyPair.nid)],
    threshold: 1,
    visibility: privacy === undefined || privacy === false ? undefined : { type: 'private', allow: privacy === true ? [] : privacy.allow },
    crefs: options.crefs,
  };
}

async function writeDefaultBranch(
  context: HomeContext,
  input: { gitDir: string; options: InitRepositoryOptions },
): Promise<{ head: Oid; headTip: HistoryTip | null }> {
  const { history, defaultBranch } = input.options;
  if (history.kind === 'generated') {
    const written = await writeGeneratedHistory({ gitDir: input.gitDir, commits: history.commits });
    return { head: written.tip.oid, headTip: written.tip };
  }
  const nid = context.local.keyPair.nid;
  const source = history.sourceRef ?? `refs/heads/${defaultBranch}`;
  const refs = await importBranches({
    gitDir: input.gitDir,
    from: history.from,
    refspecs: [`+${source}:${namespacedRef(nid, `refs/heads/${defaultBranch}`)}`],
    tagsTo: history.tags === true ? namespacedRef(nid, 'refs/tags') : undefined,
  });
  const head = refs.get(namespacedRef(nid, `refs/heads/${defaultBranch}`));
  if (head === undefined) throw new Error(`import: ${source} not found`);
  return { head, headTip: null };
}
