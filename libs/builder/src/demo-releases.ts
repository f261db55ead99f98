import type { Oid } from '@forge-httpd/storage';
import type { BuiltRepository } from './built-repository.js';
import { runGit } from './git-cli.js';
import { updateIdentity } from './identity-update.js';
import { peerByAlias, type HomeContext } from './node-home.js';
import { pushCommits, setBranches } from './peer-branches.js';
import { sampleChange } from './sample-history.js';
import { createTags } from './tags.js';

/**
 * Demo activity on a two-delegate repository (local node + alice, threshold 2): a crefs
 * revision (proposed by the local node, accepted by alice), canonical annotated and lightweight
 * tags, a canonical `release/1.0` branch both delegates agree on, a non-delegate's tag that
 * stays in its namespace, bob's feature branch, and alice pushing ahead of the canonical head
 * (no quorum, so the canonical head does not move).
 * @param context - the demo home
 * @param repo - the two-delegate repository
 */
export async function addDemoReleases(context: HomeContext, repo: BuiltRepository): Promise<void> {
  await addCanonicalRefRules(context, repo);
  await addReleases(context, repo);
  await addPeerActivity(context, repo);
}

async function addCanonicalRefRules(context: HomeContext, repo: BuiltRepository): Promise<void> {
  await updateIdentity(context, repo, {
    author: context.local,
    approvers: [peerByAlias(context, 'alice')],
    title: 'Add canonical reference rules',
    document: {
      ...repo.document,
      crefs: {
        rules: {
          'refs/tags/*': { allow: 'delegates', threshold: 1 },
          'refs/heads/release/*': { allow: 'delegates', threshold: 2 },
        },
      },
    },
  });
}

async function addReleases(context: HomeContext, repo: BuiltRepository): Promise<void> {
  const first = (await runGit(['rev-list', '--max-parents=0', repo.head], { gitDir: repo.gitDir })).trim() as Oid;
  await createTags(context, repo, {
    peer: context.local,
    canonical: true,
    tags: [
      { name: 'v0.1.0', target: first, message: 'First release' },
      { name: 'v0.2.0', target: repo.head },
    ],
  });
  for (const peer of [context.local, peerByAlias(context, 'alice')]) {
    await setBranches(context, repo, { peer, branches: [{ name: 'release/1.0', at: repo.head }], canonical: true });
  }
}

async function addPeerActivity(context: HomeContext, repo: BuiltRepository): Promise<void> {
  const bob = peerByAlias(context, 'bob');
  await createTags(context, repo, { peer: bob, tags: [{ name: 'bob-wip', target: repo.head }] });
  const darkMode = sampleChange({
    message: 'Add dark mode',
    path: 'src/theme.css',
    content: 'body { background: #111; }\n',
    author: { name: 'bob', email: 'bob@example.org' },
    time: context.clock.tick(),
  });
  await setBranches(context, repo, { peer: bob, branches: [{ name: 'feature/dark-mode', commits: [darkMode] }] });
  const readme = sampleChange({
    message: 'Update README',
    path: 'README.md',
    content: '# acme-web\n\nNow with more ACME.\n',
    author: { name: 'alice', email: 'alice@example.org' },
    time: context.clock.tick(),
  });
  await pushCommits(context, repo, { peer: peerByAlias(context, 'alice'), branch: repo.defaultBranch, commits: [readme] });
}
