import { join } from 'node:path';
import { pushCommits, repositoryByName, type BuiltHome } from '@forge-httpd/builder';
import type { Commit } from '@forge-httpd/api-types';
import { buildFixtureHome, makeTempDir, openEventStream, removeTempDir, runGitClient, startTestServer, type TestServer } from './support/index.js';
import { findNginx, type RunningNginx, startNginx } from './support/nginx.js';

// deploy/nginx/forge-httpd.conf (as a plain-HTTP copy) in front of the real server. CI installs
// nginx (.ci/run); without the binary there is nothing to run.
const nginxBinary = findNginx();
if (nginxBinary === null) console.warn('nginx e2e tests skipped: no nginx binary (Debian: apt-get install nginx)');
const describeNginx = nginxBinary === null ? describe.skip : describe;

describeNginx('behind nginx (deploy/nginx/forge-httpd.conf without TLS)', () => {
  let dir: string;
  let built: BuiltHome;
  let server: TestServer;
  let nginx: RunningNginx;

  beforeAll(async () => {
    dir = await makeTempDir();
    built = await buildFixtureHome(join(dir, 'home'));
    server = await startTestServer({ home: built.home });
    const port = Number(new URL(server.baseUrl).port);
    nginx = await startNginx({ binary: nginxBinary ?? 'nginx', dir: join(dir, 'nginx'), upstreamPort: port });
  });

  afterAll(async () => {
    await nginx?.stop();
    await server?.close();
    await removeTempDir(dir);
  });

  const alpha = () => repositoryByName(built, 'alpha');

  it('serves a repeated immutable request from its cache', async () => {
    const path = `/api/v1/repos/${alpha().rid}/tree/${alpha().head}/`;
    const first = await fetch(`${nginx.url}${path}`);
    const firstBody = await first.text();
    const second = await fetch(`${nginx.url}${path}`);
    expect([first.status, first.headers.get('x-cache-status')]).toEqual([200, 'MISS']);
    expect([second.status, second.headers.get('x-cache-status'), await second.text()]).toEqual([200, 'HIT', firstBody]);
    expect(server.requestLog.filter((line) => line['path'] === path)).toHaveLength(1);
  });

  it('passes the client address and a request id to the server log', async () => {
    await fetch(`${nginx.url}/api/v1/node`);
    const line = server.requestLog.findLast((entry) => entry['route'] === '/api/v1/node');
    expect(line).toEqual(expect.objectContaining({ ip: '127.0.0.1', reqId: expect.stringMatching(/^[0-9a-f]{32}$/) }));
  });

  it('answers If-None-Match with 304 through the proxy', async () => {
    const path = `/api/v1/repos/${alpha().rid}/commits/${alpha().head}`;
    const first = await fetch(`${nginx.url}${path}`);
    await first.arrayBuffer();
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"/);
    const again = await fetch(`${nginx.url}${path}`, { headers: { 'if-none-match': etag ?? '' } });
    expect([again.status, again.headers.get('etag')]).toEqual([304, etag]);
  });

  it('does not serve a branch that moved from its cache', async () => {
    const path = `/api/v1/repos/${alpha().rid}/commits`;
    const head = async (): Promise<string | undefined> => ((await (await fetch(`${nginx.url}${path}`)).json()) as Commit[])[0]?.id;
    expect(await head()).toBe(alpha().head);
    const author = { name: 'alice', email: 'alice@example.com', time: built.context.clock.tick(), offset: '+0000' };
    const tip = await pushCommits(built.context, alpha(), {
      peer: built.context.local,
      branch: alpha().defaultBranch,
      commits: [{ message: 'Move the branch\n', changes: { 'moved.txt': 'moved\n' }, author }],
      parent: alpha().headTip ?? undefined,
    });
    expect(await head()).toBe(tip.oid);
  });

  it('passes event streams on at once, neither buffered nor cached', async () => {
    // Two streams at once: a cached or locked location would hold the second behind the first.
    const all = await openEventStream(`${nginx.url}/api/v1/events`);
    const own = await openEventStream(`${nginx.url}/api/v1/repos/${alpha().rid}/events`);
    try {
      for (const stream of [all, own]) await stream.until((reader) => reader.comments.includes('ready'), 'the ready comment through nginx');
      const author = { name: 'alice', email: 'alice@example.com', time: built.context.clock.tick(), offset: '+0000' };
      const tip = await pushCommits(built.context, alpha(), {
        peer: built.context.local,
        branch: 'through-nginx',
        canonical: true,
        commits: [{ message: 'Announce\n', changes: { 'announce.txt': 'announce\n' }, author }],
      });
      const refs = { rid: alpha().rid, refs: { 'refs/heads/through-nginx': tip.oid } };
      for (const stream of [all, own]) {
        await stream.until((reader) => reader.events.length > 0, 'the refs event through nginx');
        expect(stream.events.map(({ event, data }) => [event, data])).toEqual([['refs', refs]]);
      }
    } finally {
      all.close();
      own.close();
    }
  });

  it('streams a git clone through the proxy', async () => {
    const out = join(dir, 'clone');
    await runGitClient(['clone', '--quiet', `${nginx.url}/${alpha().rid}.git`, out], dir);
    const { stdout } = await runGitClient(['rev-parse', 'HEAD'], out);
    const commits = (await (await fetch(`${server.baseUrl}/api/v1/repos/${alpha().rid}/commits`)).json()) as Commit[];
    expect(stdout.trim()).toBe(commits[0]?.id);
    expect(server.requestLog).toContainEqual(expect.objectContaining({ route: '/:repo/git-upload-pack', method: 'POST', status: 200 }));
  });
});
