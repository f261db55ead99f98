import type { RepoInfo } from '@forge-httpd/api-types';
import { createIssue } from '@forge-httpd/cob/write';
import { readGitProcessCounts } from '@forge-httpd/storage';
import { peerByAlias, repositoryByName } from '@forge-httpd/builder';
import { getJson, useFixtureServer } from './support/index.js';

// Issue and patch counts of a repository whose ref files show no issue or patch ref are zero
// without a git process (a listing page of 10 such repositories started 10 `for-each-ref`).

const fixture = useFixtureServer();

/** The project's `meta` counts of a repository info. */
function counts(info: RepoInfo): unknown {
  const project = info.payloads['xyz.forge.project'] as { meta?: { issues: unknown; patches: unknown } } | undefined;
  return { issues: project?.meta?.issues, patches: project?.meta?.patches };
}

const ZERO = { issues: { open: 0, closed: 0 }, patches: { open: 0, draft: 0, archived: 0, merged: 0 } };

describe('issue and patch counts from the ref files', () => {
  it('counts nothing for a repository without issue or patch refs, and starts no git command for it', async () => {
    const before = readGitProcessCounts().command.spawned;
    const response = await getJson(fixture.url(`/api/v1/repos/${fixture.rid('gamma-alpha')}`));
    expect(response.status).toBe(200);
    expect(counts(response.body as RepoInfo)).toEqual(ZERO);
    expect(readGitProcessCounts().command.spawned).toBe(before);
  });

  it('counts through the evaluation once an issue ref is there', async () => {
    const { built } = fixture;
    await createIssue(
      {
        gitDir: repositoryByName(built, 'Alphabet').gitDir,
        keyPair: peerByAlias(built.context, 'bob').keyPair,
        alias: 'bob',
        time: built.context.clock.tick(),
        flavour: 'forge',
      },
      { title: 'Counted', description: 'An issue ref appears.' },
    );
    const response = await getJson(fixture.url(`/api/v1/repos/${fixture.rid('Alphabet')}`));
    expect(response.status).toBe(200);
    expect(counts(response.body as RepoInfo)).toEqual({ ...ZERO, issues: { open: 1, closed: 0 } });
  });
});
