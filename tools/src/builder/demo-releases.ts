import { runGit } from './git-cli.js';
import type { BuiltRepository } from './built-repository.js';
import type { Oid } from '@forge-httpd/storage';
import { updateIdentity } from './identity-update.js';
import { peerByAlias, type HomeContext } from './node-home.js';
import { pushCommits, setBranches } from './peer-branches.js';
import { sampleChange } from './sample-history.js';
import { createTags } from './tags.js';

/**
 * Demo activity on a two-delegate repository (local node + alice, threshold 2):
 * a crefs revision (proposed by the local node, accepted by alice), canonical annotated and
 * lightweight tags, a canonical `release/1.0` branch both delegates agree on, a delegate's tag
 * and a non-delegate's tag that stay in their namespaces, bob's feature branch, and alice
 * pushing ahead of the canonical head (no quorum yet).
 * @param context - the demo home
 * @param repo - the two-delegate repository
 */
export async function addDemoReleases(context: HomeContext, repo: BuiltRepository): Promise<void> {
  const { local } = context;
  const alice = peerByAlias(context, 'alice');
  const bob = peerByAlias(context, 'bob');
  await updateIdentity(context, repo, {
    author: local,
    approvers: [alice],
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
  const first = (await runGit(['rev-list', '--max-parents=0', repo.head], { gitDir: repo.gitDir })).trim() as Oid;
  await createTags(context, repo, {
    peer: local,
    canonical: true,
    tags: [
      { name: 'v0.1.0', target: first, message: 'First release' },
      { name: 'v0.2.0', target: repo.head },
    ],
  });
  for (const peer of [local, alice]) {
    await setBranches(context, repo, { peer, branches: [{ name: 'release/1.0', at: repo.head }], canonical: true });
  }
  await createTags(context, repo, { peer: bob, tags: [{ name: 'bob-wip', target: repo.head }] });
  const time = context.clock.tick();
  await setBranches(context, repo, {
    peer: bob,
    branches: [{ name: 'feature/dark-mode', commits: [sampleChange({ message: 'Add dark mode', path: 'src/theme.css', content: 'body { background: #111; }\n', author: { name: 'bob', email: 'bob@example.org' }, time })] }],
  });
  await pushCommits(context, repo, {
    peer: alice,
    branch: repo.defaultBranch,
    commits: [sampleChange({ message: 'Update README', path: 'README.md', content: '# acme-web\n\nNow with more ACME.\n', author: { name: 'alice', email: 'alice@example.org' }, time: context.clock.tick() })],
  });
}
