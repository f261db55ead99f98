import {
  assignIssue,
  type CobWriteContext,
  commentIssue,
  commentReview,
  commentRevision,
  createIssue,
  createJob,
  createPatch,
  editIssueComment,
  editReview,
  finishJobRun,
  labelIssue,
  labelPatch,
  mergePatch,
  reactIssueComment,
  reactReview,
  reactRevision,
  reactRevisionComment,
  redactIssueComment,
  resolveReviewComment,
  revisePatch,
  reviewPatch,
  setIssueState,
  setPatchState,
  startJobRun,
} from '@forge-httpd/cob/write';
import { didFromNid } from '@forge-httpd/identity';
import { type Flavour, type GitRepository, type Oid, openGitRepository, StorageRuntime } from '@forge-httpd/storage';
import { repackRepository, serializeCommit, serializeTree, type TreeEntryInput, updateRefs, writeObject } from '@forge-httpd/storage/write';
import { namespacedRef, type BuiltRepository } from './built-repository.js';
import type { FixedClock } from './clock.js';
import type { Peer } from './node-home.js';

/** What the demo hands to the issue/patch generator. */
export interface DemoCollaborationContext {
  /** The node home directory (`cobs/cache.db` lives under it). */
  readonly home: string;
  readonly flavour: Flavour;
  /** The node owning the home. */
  readonly local: Peer;
  /** Every peer the builder can sign as (key pair and alias), by alias; includes `local`. */
  readonly peers: ReadonlyMap<string, Peer>;
  /** The demo repositories by name: rid, gitDir, defaultBranch, head, identityHead, document… */
  readonly repos: ReadonlyMap<string, BuiltRepository>;
  /** Fixed clock: take every commit time from `clock.tick()` so ids stay deterministic. */
  readonly clock: FixedClock;
  /** Re-signs a peer's refs in a repository after its COB refs moved (new sigrefs commit). */
  resignRefs(repo: BuiltRepository, peer: Peer): Promise<Oid>;
}

/** Writes as one peer in one repository; every call takes the next tick of the clock. */
interface Writer {
  (alias: string): CobWriteContext;
  readonly repo: BuiltRepository;
  did(alias: string): ReturnType<typeof didFromNid>;
  /** A peer commits one file on top of `parent` to a branch of its namespace. */
  commit(alias: string, args: { branch: string; parent: Oid; file: string; content: string; message: string }): Promise<Oid>;
  /** The tip of a peer's branch, null when absent. */
  branch(alias: string, name: string): Promise<Oid | null>;
  /** Re-signs a peer's refs in the repository. */
  resign(alias: string): Promise<Oid>;
}

/**
 * Adds a lively, deterministic history of issues, patches and jobs to the demo home, written
 * with `@forge-httpd/cob` exactly as nodes would: on `acme-web` (delegates: the local node and
 * alice, threshold 2) issues with comments, replies, edits, embeds, reactions, labels,
 * assignees, a redaction and closed ones; a patch with two revisions, reviews with a code
 * location and a resolved thread, merged by both delegates; a draft, an archived and an open
 * patch; CI jobs with runs. `tiny-lib` gets a smaller history. Every author's refs are
 * re-signed at the end; branches and canonical heads written before are left where they are.
 * @param context - see {@link DemoCollaborationContext}
 */
export async function addDemoCollaboration(context: DemoCollaborationContext): Promise<void> {
  const acme = context.repos.get('acme-web');
  const tiny = context.repos.get('tiny-lib');
  if (acme !== undefined) await acmeStory(writer(context, acme));
  if (tiny !== undefined) await tinyStory(writer(context, tiny));
}

async function acmeStory(w: Writer): Promise<void> {
  const contact = await acmeIssues(w);
  const merged = await releasePatch(w, contact);
  await otherPatches(w);
  await ciJobs(w, merged);
  await resignAll(w, ['seed-demo', 'alice', 'bob', 'carol', 'dave', 'eve']);
}

async function acmeIssues(w: Writer): Promise<Oid> {
  const contact = await createIssue(w('bob'), { title: 'About page shows an old version', description: 'It still says 0.1.0.' });
  const question = await commentIssue(w('alice'), { issue: contact, body: 'Which browser? Maybe a cached page?' });
  await commentIssue(w('bob'), {
    issue: contact,
    replyTo: question,
    body: 'No cache involved, see the attached screenshot text.',
    embeds: [{ name: 'about.txt', content: Buffer.from('ACME web 0.1.0\n') }],
  });
  await reactIssueComment(w('carol'), { issue: contact, comment: contact, reaction: '👀' });
  await reactIssueComment(w('alice'), { issue: contact, comment: contact, reaction: '👀' });
  await labelIssue(w('seed-demo'), { issue: contact, labels: ['bug', 'release'] });
  await assignIssue(w('seed-demo'), { issue: contact, assignees: [w.did('bob')] });

  const dark = await createIssue(w('carol'), { title: 'Add dark mode', description: 'A dark theme would be easier on the eyes.' });
  await editIssueComment(w('carol'), { issue: dark, comment: dark, body: 'A dark theme (`prefers-color-scheme`) would be easier on the eyes.' });
  await commentIssue(w('eve'), { issue: dark, body: '+1, especially at night.' });
  await commentIssue(w('bob'), { issue: dark, body: 'I started on `feature/dark-mode`.' });
  for (const [alias, reaction] of [
    ['alice', '🎉'],
    ['bob', '🎉'],
    ['eve', '❤'],
  ] as const) {
    await reactIssueComment(w(alias), { issue: dark, comment: dark, reaction });
  }
  await labelIssue(w('alice'), { issue: dark, labels: ['design', 'enhancement'] });
  await assignIssue(w('alice'), { issue: dark, assignees: [w.did('bob'), w.did('carol')] });

  const link = await createIssue(w('alice'), { title: 'Broken link on the about page', description: 'The "team" link returns 404.', labels: ['bug'] });
  await commentIssue(w('seed-demo'), { issue: link, body: 'Removed the team page instead.' });
  await setIssueState(w('seed-demo'), { issue: link, state: { status: 'closed', reason: 'other' } });

  const typo = await createIssue(w('eve'), { title: "Typo in footer: 'Copyrigth'", description: 'Bottom of every page.' });
  const spam = await commentIssue(w('dave'), { issue: typo, body: 'Buy cheap watches!' });
  await redactIssueComment(w('dave'), { issue: typo, comment: spam });
  await reactIssueComment(w('bob'), { issue: typo, comment: typo, reaction: '👍' });

  const gallery = await createIssue(w('dave'), { title: 'Image gallery is slow', description: 'Loading 40 photos takes ten seconds.' });
  await labelIssue(w('seed-demo'), { issue: gallery, labels: ['performance'] });
  return contact;
}

/**
 * bob's release patch: a first revision that is rejected, then the canonical head itself as the
 * second revision, reviewed and merged by both delegates (threshold 2). Merging the existing
 * head keeps the canonical branch where the rest of the demo expects it.
 */
async function releasePatch(w: Writer, issue: Oid): Promise<{ v1: Oid; v2: Oid }> {
  const v2 = w.repo.head;
  const base = (await firstParent(w.repo, v2)) ?? v2;
  const v1 = await w.commit('bob', {
    branch: 'release',
    parent: base,
    file: 'package.json',
    message: 'Bump version to 0.2.0-rc.1',
    content: '{\n  "name": "acme-web",\n  "version": "0.2.0-rc.1"\n}\n',
  });
  const patch = await createPatch(w('bob'), { title: 'Bump version to 0.2.0', description: 'Prepare the 0.2.0 release.', base, oid: v1 });
  const review1 = await reviewPatch(w('alice'), { patch, revision: patch, verdict: 'reject', summary: 'No release candidates, please.' });
  const location = { commit: v1, path: 'package.json', old: null, new: { type: 'lines' as const, range: { start: 2, end: 3 } } };
  const note = await commentReview(w('alice'), { patch, review: review1, body: 'Make this `0.2.0`.', location });
  await commentReview(w('bob'), { patch, review: review1, body: 'Done in the next revision.', replyTo: note });
  await updateRefs(w.repo.gitDir, [{ name: namespacedRef(w('bob').keyPair.nid, 'refs/heads/release'), oid: v2 }]);
  const revision = await revisePatch(w('bob'), { patch, description: 'Version `0.2.0`, no release candidate.', base, oid: v2 });
  await resolveReviewComment(w('alice'), { patch, review: review1, comment: note });
  // What current Radicle writes: a review edited with review.edit.v2, and a reaction on a review.
  await editReview(w('alice'), { patch, review: review1, verdict: 'reject', summary: 'No release candidates, please: fixed in the next revision.' });
  await reactReview(w('bob'), { patch, review: review1, reaction: '👍' });
  await reviewPatch(w('seed-demo'), { patch, revision, verdict: 'accept', summary: 'Looks good.' });
  await reviewPatch(w('alice'), { patch, revision, verdict: 'accept', summary: 'LGTM, thanks!' });
  const tested = await commentRevision(w('carol'), { patch, revision, body: 'The about page shows 0.2.0 now.' });
  await reactRevisionComment(w('bob'), { patch, revision, comment: tested, reaction: '🙏' });
  await reactRevision(w('eve'), { patch, revision, reaction: '🎉' });
  await reactRevision(w('carol'), { patch, revision, reaction: '👍', location: { ...location, commit: v2 } });
  await labelPatch(w('seed-demo'), { patch, labels: ['release'] });
  // Both delegates' default branches already contain the head: each records its merge.
  for (const alias of ['seed-demo', 'alice']) await mergePatch(w(alias), { patch, revision, commit: v2 });
  await commentIssue(w('alice'), { issue, body: `Fixed by patch ${patch.slice(0, 7)}.` });
  await setIssueState(w('alice'), { issue, state: { status: 'closed', reason: 'solved' } });
  return { v1, v2 };
}

async function otherPatches(w: Writer): Promise<void> {
  const base = w.repo.head;
  const darkMode = await w.branch('bob', 'feature/dark-mode');
  if (darkMode !== null) {
    const draft = await createPatch(w('bob'), {
      title: 'Add dark mode',
      description: 'Work in progress, see the dark mode issue.',
      base: (await mergeBase(w.repo, { a: base, b: darkMode })) ?? base,
      oid: darkMode,
      draft: true,
    });
    await commentRevision(w('carol'), { patch: draft, revision: draft, body: 'The contrast of links is too low.' });
  }
  const rewrite = await w.commit('eve', {
    branch: 'rewrite',
    parent: base,
    file: 'app.jsx',
    content: 'export default () => null;\n',
    message: 'Start the rewrite',
  });
  const archived = await createPatch(w('eve'), { title: 'Rewrite the site in a new framework', description: 'Everything, from scratch.', base, oid: rewrite });
  await commentRevision(w('seed-demo'), { patch: archived, revision: archived, body: 'We are not going to do this, sorry.' });
  await setPatchState(w('eve'), { patch: archived, state: 'archived' });
  const deps = await w.commit('carol', {
    branch: 'deps',
    parent: base,
    file: 'package-lock.json',
    content: '{ "lockfileVersion": 3 }\n',
    message: 'Update dependencies',
  });
  const open = await createPatch(w('carol'), { title: 'Update dependencies', description: 'Routine update.', base, oid: deps, labels: [] });
  await reviewPatch(w('alice'), { patch: open, revision: open, summary: 'I will check the lockfile tomorrow.' });
  await labelPatch(w('seed-demo'), { patch: open, labels: ['dependencies'] });
}

/** carol and eve run CI for both revisions of the merged patch. */
async function ciJobs(w: Writer, heads: { v1: Oid; v2: Oid }): Promise<void> {
  const first = await createJob(w('carol'), { commit: heads.v1 });
  await startJobRun(w('carol'), { job: first, runId: '6f1c2a4e-0d3b-4c55-9a1e-2b7d8c9e0f11', log: 'https://ci.carol.example/runs/101' });
  await finishJobRun(w('carol'), { job: first, runId: '6f1c2a4e-0d3b-4c55-9a1e-2b7d8c9e0f11', succeeded: false });
  const second = await createJob(w('carol'), { commit: heads.v2 });
  await startJobRun(w('carol'), { job: second, runId: '8a2d4f60-1e5c-4b77-8c3f-4d9e0a1b2c22', log: 'https://ci.carol.example/runs/102' });
  await finishJobRun(w('carol'), { job: second, runId: '8a2d4f60-1e5c-4b77-8c3f-4d9e0a1b2c22', succeeded: true });
  await startJobRun(w('eve'), { job: second, runId: '1b3e5a70-2f6d-4c88-9d4a-5e0f1b2c3d33', log: 'https://eve.example.org/ci/7' });
}

async function tinyStory(w: Writer): Promise<void> {
  const docs = await createIssue(w('carol'), { title: 'Document the public API', description: 'Which functions are stable?' });
  await commentIssue(w('seed-demo'), { issue: docs, body: 'Everything exported from `index`.' });
  const head = await w.commit('carol', { branch: 'docs', parent: w.repo.head, file: 'API.md', content: '# API\n\nSee `index`.\n', message: 'Add API docs' });
  const patch = await createPatch(w('carol'), { title: 'Add API documentation', description: `Closes ${docs.slice(0, 7)}.`, base: w.repo.head, oid: head });
  await reviewPatch(w('seed-demo'), { patch, revision: patch, verdict: 'accept' });
  await resignAll(w, ['seed-demo', 'carol']);
  // tiny-lib is the demo's packed repository: keep it packed.
  await repackRepository(w.repo.gitDir);
}

function writer(context: DemoCollaborationContext, repo: BuiltRepository): Writer {
  const peer = (alias: string): Peer => {
    const found = alias === context.local.alias ? context.local : context.peers.get(alias);
    if (found === undefined) throw new Error(`demo collaboration: unknown peer ${alias}`);
    return found;
  };
  // Refs are re-signed once per author at the end (resignAll): much faster, same final state.
  const write = ((alias: string): CobWriteContext => ({
    gitDir: repo.gitDir,
    keyPair: peer(alias).keyPair,
    alias,
    time: context.clock.tick(),
    flavour: context.flavour,
    signRefs: false,
  })) as Writer;
  return Object.assign(write, {
    repo,
    did: (alias: string) => didFromNid(peer(alias).keyPair.nid),
    commit: (alias: string, args: Parameters<Writer['commit']>[1]) => commitFile({ repo, peer: peer(alias), time: context.clock.tick(), ...args }),
    branch: (alias: string, name: string) => resolve(repo, namespacedRef(peer(alias).keyPair.nid, `refs/heads/${name}`)),
    resign: (alias: string) => context.resignRefs(repo, peer(alias)),
  });
}

async function resignAll(w: Writer, aliases: readonly string[]): Promise<void> {
  for (const alias of aliases) await w.resign(alias);
}

/** Writes a commit changing one top-level file and points the peer's branch at it. */
async function commitFile(args: {
  repo: BuiltRepository;
  peer: Peer;
  time: number;
  branch: string;
  parent: Oid;
  file: string;
  content: string;
  message: string;
}): Promise<Oid> {
  const { repo, peer } = args;
  const parentTree = await withGit(repo, async (git) => {
    const parent = await git.readCommit(args.parent);
    return parent === null ? [] : ((await git.readTree(parent.tree)) ?? []);
  });
  const entries = parentTree.filter((entry) => entry.name !== args.file).map((e) => ({ name: e.name, mode: e.mode, oid: e.oid }) as TreeEntryInput);
  const blob = await writeObject(repo.gitDir, 'blob', Buffer.from(args.content));
  const tree = await writeObject(repo.gitDir, 'tree', serializeTree([...entries, { name: args.file, mode: '100644', oid: blob }]));
  const person = { name: peer.alias, email: `${peer.alias}@example.org`, time: args.time, offset: '+0000' };
  const commit = await writeObject(
    repo.gitDir,
    'commit',
    serializeCommit({ tree, parents: [args.parent], author: person, committer: person, message: `${args.message}\n` }),
  );
  await updateRefs(repo.gitDir, [{ name: namespacedRef(peer.keyPair.nid, `refs/heads/${args.branch}`), oid: commit }]);
  return commit;
}

async function resolve(repo: BuiltRepository, name: string): Promise<Oid | null> {
  return withGit(repo, (git) => git.resolveRef(name));
}

async function mergeBase(repo: BuiltRepository, { a, b }: { a: Oid; b: Oid }): Promise<Oid | null> {
  return withGit(repo, (git) => git.mergeBase(a, b));
}

async function firstParent(repo: BuiltRepository, commit: Oid): Promise<Oid | null> {
  return withGit(repo, async (git) => (await git.readCommit(commit))?.parents[0] ?? null);
}

async function withGit<T>(repo: BuiltRepository, run: (git: GitRepository) => Promise<T>): Promise<T> {
  const git = openGitRepository(repo.gitDir, { runtime: new StorageRuntime() });
  try {
    return await run(git);
  } finally {
    await git.close();
  }
}
