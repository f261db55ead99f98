/**
 * The COB types the store evaluates, each as: type name, fold, and view.
 */
import type { Nid } from '@forge-httpd/identity';
import { cobTypeName, type Flavour, FLAVOURS, type Oid, payloadId, type StoredRepository } from '@forge-httpd/storage';
import type { Change } from '../change.js';
import { type ChangeRejection, evaluateChanges } from '../dag/evaluate-changes.js';
import { issueFolder } from '../issue/fold-issue.js';
import { type Issue, viewIssue } from '../issue/issue-view.js';
import { jobFolder } from '../job/fold-job.js';
import { type Job, viewJob } from '../job/job-view.js';
import type { FoldEnv } from '../model/fold-env.js';
import { patchFolder } from '../patch/fold-patch.js';
import { type Patch, viewPatch } from '../patch/patch-view.js';
import type { ListingFacts } from './persisted-evaluations.js';

/** The job COB type of radicle-job; never renamed by the flavour. */
export const JOB_TYPE_NAME = 'xyz.radworks.job';

/** What a store needs from a repository. */
export type CobRepository = Pick<StoredRepository, 'rid' | 'git' | 'remote'>;

/** Input of one object's evaluation. */
export interface EvaluateInput {
  readonly id: Oid;
  readonly changes: readonly Change[];
  readonly env: FoldEnv;
  readonly repo: CobRepository;
  /** Told of each change the evaluation drops. */
  readonly onReject: (rejection: ChangeRejection) => void;
}

/** A COB type the store knows. */
export interface CobKind<V> {
  readonly typeName: string;
  evaluate(input: EvaluateInput): Promise<V | null>;
  /** What listings sort and filter a view by (kept when the view is let go); null for a kind never listed. */
  listingFacts(value: V): ListingFacts | null;
  /**
   * Views as shown now (in their order), with what is looked up when shown rather than
   * evaluated from the object's changes (and so never makes it evaluated again); absent when
   * nothing is.
   */
  present?(values: readonly V[], repo: CobRepository): Promise<V[]>;
}

/** The kinds of a flavour. */
export interface CobKinds {
  readonly issue: CobKind<Issue>;
  readonly patch: CobKind<Patch>;
  readonly job: CobKind<Job>;
  readonly projectPayloadId: string;
}

/** The kinds for a flavour (type names `xyz.<flavour>.issue|patch`, job unchanged); one object per flavour. */
export function cobKinds(flavour: Flavour): CobKinds {
  return KINDS_BY_FLAVOUR.get(flavour) as CobKinds;
}

function buildCobKinds(flavour: Flavour): CobKinds {
  return {
    projectPayloadId: payloadId(flavour, 'project'),
    issue: {
      typeName: cobTypeName(flavour, 'issue'),
      evaluate: async ({ id, changes, env, onReject }) => {
        const result = evaluateChanges({ rootId: id, changes, folder: issueFolder(env), onReject });
        return result === null ? null : viewIssue(result.state);
      },
      listingFacts: listingFactsOf,
    },
    patch: { typeName: cobTypeName(flavour, 'patch'), evaluate: evaluatePatch, listingFacts: listingFactsOf, present: presentPatches },
    job: {
      typeName: JOB_TYPE_NAME,
      evaluate: async ({ id, changes, env, onReject }) => {
        const result = evaluateChanges({ rootId: id, changes, folder: jobFolder(env), onReject });
        return result === null ? null : viewJob(result.state);
      },
      listingFacts: () => null,
    },
  };
}

/** Issues and patches are listed newest first by their root's time, filtered by status. */
function listingFactsOf(view: Issue | Patch): ListingFacts {
  return { timestamp: view.timestamp, status: view.state.status };
}

async function evaluatePatch({ id, changes, env, onReject }: EvaluateInput): Promise<Patch | null> {
  const result = evaluateChanges({ rootId: id, changes, folder: patchFolder(env), onReject });
  // Revision refs are looked up when the patch is shown (presentPatches), not kept.
  return result === null ? null : viewPatch(result.state, () => []);
}

/**
 * Patches with their revisions' refs: the names in each author's verified signed refs that
 * point at the revision (docs/radicle-httpd.md §6.5), as the signed refs are now, each author's
 * looked up once. Looked up when shown rather than evaluated with the patch: a node signs its
 * refs again after every change it writes, so an author's comment anywhere had every patch of
 * theirs evaluated again.
 */
async function presentPatches(patches: readonly Patch[], repo: CobRepository): Promise<Patch[]> {
  const authors = new Set(patches.flatMap((patch) => patch.revisions.map((revision) => revision.author)));
  const remotes = new Map<Nid, ReadonlyMap<string, Oid>>();
  await Promise.all(
    [...authors].map(async (author) => {
      const remote = await repo.remote(author);
      if (remote !== null) remotes.set(author, remote.refs);
    }),
  );
  return patches.map((patch) => {
    const revisions = patch.revisions.map((revision) => {
      const refs = remotes.get(revision.author);
      return { ...revision, refs: refs === undefined ? [] : (namesByTarget(refs).get(revision.oid) ?? []) };
    });
    return { ...patch, revisions };
  });
}

/**
 * Ref names by target of one peer's signed refs. The storage layer hands out the same map
 * while the peer's signed refs are unchanged, so this is built once per peer and sigrefs
 * commit, not scanned per revision (a scan per patch made big listings slow).
 */
function namesByTarget(refs: ReadonlyMap<string, Oid>): ReadonlyMap<Oid, readonly string[]> {
  let index = refIndexes.get(refs);
  if (index === undefined) {
    const built = new Map<Oid, string[]>();
    // Names stay in the map's order (sorted by name), as the scan returned them.
    for (const [name, target] of refs) {
      const names = built.get(target);
      if (names === undefined) built.set(target, [name]);
      else names.push(name);
    }
    index = built;
    refIndexes.set(refs, index);
  }
  return index;
}

// Process-wide on purpose (one of the documented exceptions, tools/test/house/module-state.spec.ts):
// a side table keyed by the identity of a map the storage layer hands to every store and request
// alike; an entry lives exactly as long as that map and holds nothing else, so no runtime object
// could own it better.
const refIndexes = new WeakMap<ReadonlyMap<string, Oid>, ReadonlyMap<Oid, readonly string[]>>();

// Built once for every flavour, as the module loads: every repository's store shares them.
const KINDS_BY_FLAVOUR: ReadonlyMap<Flavour, CobKinds> = new Map(FLAVOURS.map((flavour) => [flavour, buildCobKinds(flavour)]));
