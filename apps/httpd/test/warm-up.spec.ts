import { setWebProfile } from '@forge-httpd/builder';
import { warmUp } from '../src/warm-up/warm-up.js';
import { useFixtureServer } from './support/index.js';

const fixture = useFixtureServer();

const warmedRepositories = (paths: readonly string[]): Set<string> =>
  new Set(paths.map((path) => /^\/api\/v1\/repos\/(rad:[^/]+)/.exec(path)?.[1]).filter((rid): rid is string => rid !== undefined));

describe('start-up warm-up', () => {
  it("requests the explorer's first pages of the pinned public repositories, never a private one", async () => {
    const { address, home } = fixture.server.server;
    const report = await warmUp(address, home);
    const paths = report.requests.map((request) => request.path);
    expect(warmedRepositories(paths)).toEqual(new Set([fixture.rid('alpha'), fixture.rid('blocked')]));
    expect(paths.some((path) => path.includes(fixture.rid('secret')))).toBe(false);
    const alpha = `/api/v1/repos/${fixture.rid('alpha')}`;
    for (const page of ['', '/commits', '/issues', '/patches']) {
      expect(report.requests).toContainEqual({ path: `${alpha}${page}`, status: 200 });
    }
    const head = paths.find((path) => path.startsWith(`${alpha}/tree/`))?.split('/')[6];
    expect(head).toMatch(/^[0-9a-f]{40}$/);
    expect(report.requests).toContainEqual({ path: `${alpha}/commits/${head}`, status: 200 });
    // The diff and blob routes too, so their code is compiled before a first visitor's page.
    for (const page of [new RegExp(`^${alpha}/diff/[0-9a-f]{40}/${head}$`), new RegExp(`^${alpha}/blob/${head}/.+`)]) {
      expect(report.requests.filter((request) => page.test(request.path)).map((request) => request.status)).toEqual([200]);
    }
    for (const request of report.requests) expect([200, 404]).toContain(request.status);
    // The commit-graph code ran on its in-memory graph and checked its own answers.
    expect(report.commitGraphCode).toBe('consistent');
  });

  it('warms the first public repository when none is pinned, and stops when aborted', async () => {
    const { address, home } = fixture.server.server;
    // config.json is re-read when its stat (inode, size, ns times) changed: at once, no settle window.
    await setWebProfile(fixture.built.context, { web: { pinned: [] }, repos: fixture.built.repos });
    const report = await warmUp(address, home);
    const warmed = [...warmedRepositories(report.requests.map((request) => request.path))];
    const firstPublic = home.storageIndex.list().find((summary) => summary.document?.visibility.type === 'public');
    expect(warmed).toEqual([firstPublic?.rid]);
    for (const request of report.requests) expect([200, 404]).toContain(request.status);
    const aborted = new AbortController();
    aborted.abort();
    expect(await warmUp(address, home, aborted.signal)).toEqual({ requests: [], commitGraphCode: 'not run' });
  });
});
