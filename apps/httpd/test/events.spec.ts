import { rename } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { commentIssue, createIssue, type CobWriteContext } from '@forge-httpd/cob/write';
import { parseServerEvent } from '@forge-httpd/api-types';
import { ridDirectoryName } from '@forge-httpd/identity';
import { type BuiltHome, type BuiltRepository, buildNodeHome, pushCommits, repositoryByName, updateIdentity } from '@forge-httpd/builder';
import {
  ABSENT_RID,
  type EventStreamReader,
  getJson,
  makeTempDir,
  openEventStream,
  rawRequest,
  removeTempDir,
  startTestServer,
  type TestServer,
} from './support/index.js';

// The event streams over a node home written to while clients listen (no node runs: the
// server reads storage itself). Periods are shortened so nothing waits long; every wait polls
// with a bound.
const SEED = 'e7'.repeat(32);
const NOT_FOUND = '{"error":"Not Found","code":404}';

function buildEventsHome(home: string, repos: ReadonlyArray<{ name: string; private?: boolean }>): Promise<BuiltHome> {
  return buildNodeHome({ home, seed: SEED, alias: 'alice', time: 1_700_000_000, repos });
}

describe('event streams while storage changes', () => {
  let dir: string;
  let built: BuiltHome;
  let server: TestServer;
  const streams: EventStreamReader[] = [];

  beforeAll(async () => {
    dir = await makeTempDir();
    built = await buildEventsHome(join(dir, 'home'), [{ name: 'acme' }, { name: 'beta' }, { name: 'secret', private: true }]);
    server = await startTestServer({ home: built.home, eventStreams: { pollMs: 20, heartbeatMs: 60_000 } });
  }, 60_000);
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await server?.close();
    await removeTempDir(dir);
  });

  const repo = (name: string): BuiltRepository => repositoryByName(built, name);
  const as = (name: string): CobWriteContext => ({
    gitDir: repo(name).gitDir,
    keyPair: built.context.local.keyPair,
    alias: 'alice',
    time: built.context.clock.tick(),
    flavour: 'forge',
  });
  const open = async (path: string): Promise<EventStreamReader> => {
    const stream = await openEventStream(`${server.baseUrl}/api/v1${path}`);
    streams.push(stream);
    expect(stream.status).toBe(200);
    await stream.until((reader) => reader.comments.includes('ready'), 'the ready comment');
    return stream;
  };
  const payloads = (stream: EventStreamReader): Array<[string, unknown]> => stream.events.map(({ event, data }) => [event, data]);

  it('sends every change in order, to the streams following it, and nothing of a private repository', async () => {
    const all = await open('/events');
    const acme = await open(`/repos/${repo('acme').rid}/events`);
    const beta = await open(`/repos/${repo('beta').rid}/events`);
    expect(all.headers['content-type']).toBe('text/event-stream');
    expect(all.headers['access-control-allow-origin']).toBe('*');
    const expected: Array<[string, unknown]> = [];
    const seen = async (event: [string, unknown]): Promise<void> => {
      expected.push(event);
      await all.until((reader) => reader.events.length >= expected.length, `${event[0]} event`);
    };

    const issue = await createIssue(as('acme'), { title: 'Crash', description: 'It crashes.' });
    await seen(['issue', { rid: repo('acme').rid, id: issue }]);
    await commentIssue(as('acme'), { issue, body: 'Which version?' });
    await seen(['issue', { rid: repo('acme').rid, id: issue }]);
    const author = { name: 'alice', email: 'alice@example.com', time: built.context.clock.tick(), offset: '+0000' };
    const tip = await pushCommits(built.context, repo('acme'), {
      peer: built.context.local,
      branch: 'main',
      commits: [{ message: 'Add notes\n', changes: { 'notes.txt': 'notes\n' }, author }],
    });
    await seen(['refs', { rid: repo('acme').rid, refs: { 'refs/heads/main': tip.oid } }]);
    // A private repository changes: nothing is sent (the next event proves the look passed it).
    await createIssue(as('secret'), { title: 'Hidden', description: 'Nobody sees this.' });
    await updateIdentity(built.context, repo('beta'), {
      author: built.context.local,
      title: 'Hide',
      document: { ...repo('beta').document, visibility: { type: 'private' } },
    });
    await seen(['repo', { rid: repo('beta').rid, public: false }]);
    // Appearing: a repository moved into storage whole.
    const other = await buildEventsHome(join(dir, 'other'), [{ name: 'gamma' }]);
    const gamma = other.repos[0] as BuiltRepository;
    await rename(gamma.gitDir, join(built.home, 'storage', basename(gamma.gitDir)));
    await seen(['repo', { rid: gamma.rid, public: true }]);
    // Turned public again: it appears as a new one would.
    await updateIdentity(built.context, repo('beta'), {
      author: built.context.local,
      title: 'Show',
      document: { ...repo('beta').document, visibility: { type: 'public' } },
    });
    await seen(['repo', { rid: repo('beta').rid, public: true }]);
    // Removed: moved out of storage whole.
    await rename(repo('acme').gitDir, join(dir, 'removed-acme'));
    await seen(['repo', { rid: repo('acme').rid, public: false }]);

    expect(payloads(all)).toEqual(expected);
    // Every event as the api-types parser checks it.
    for (const { event, id, data } of all.events)
      expect(parseServerEvent({ type: event, lastEventId: id, data: JSON.stringify(data) })).toMatchObject({ type: event, id, data });
    const ids = all.events.map((event) => Number(event.id));
    expect(ids.every((id, index) => Number.isSafeInteger(id) && (index === 0 || id > (ids[index - 1] as number)))).toBe(true);
    // A repository's stream: its own events, ending when it is gone or made private.
    await acme.until((reader) => reader.ended(), 'the end of the acme stream');
    expect(payloads(acme)).toEqual(expected.filter(([, data]) => (data as { rid: string }).rid === repo('acme').rid));
    await beta.until((reader) => reader.ended(), 'the end of the beta stream');
    expect(payloads(beta)).toEqual([['repo', { rid: repo('beta').rid, public: false }]]);
    for (const stream of [all, acme, beta]) {
      expect(stream.text()).not.toContain(ridDirectoryName(repo('secret').rid));
      expect(stream.text()).not.toContain(repo('secret').identityHead);
    }
  }, 60_000);

  it('answers the stream of a private repository exactly like an absent one', async () => {
    const hidden = await getJson(`${server.baseUrl}/api/v1/repos/${repo('secret').rid}/events`);
    const absent = await getJson(`${server.baseUrl}/api/v1/repos/${ABSENT_RID}/events`);
    const answer = (response: typeof hidden): unknown[] => [
      response.status,
      response.text,
      response.headers.get('content-type'),
      response.headers.get('cache-control'),
    ];
    expect(answer(hidden)).toEqual([404, NOT_FOUND, 'application/json; charset=utf-8', null]);
    expect(answer(absent)).toEqual(answer(hidden));
    expect((await getJson(`${server.baseUrl}/api/v1/repos/rad:nope/events`)).status).toBe(400);
  });
});

describe('event stream bounds', () => {
  let dir: string;
  let built: BuiltHome;
  let server: TestServer;
  const streams: EventStreamReader[] = [];

  beforeAll(async () => {
    dir = await makeTempDir();
    built = await buildEventsHome(join(dir, 'home'), [{ name: 'acme' }]);
    server = await startTestServer({ home: built.home, eventStreams: { maxClients: 2, heartbeatMs: 30, pollMs: 20 } });
  }, 60_000);
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await server?.close();
    await removeTempDir(dir);
  });

  const open = async (path: string): Promise<EventStreamReader> => {
    const stream = await openEventStream(`${server.baseUrl}/api/v1${path}`);
    streams.push(stream);
    return stream;
  };

  it('answers HEAD with the stream headers and no body', async () => {
    const response = await rawRequest(server.baseUrl, { path: '/api/v1/events', method: 'HEAD' });
    expect([response.status, response.headers.get('content-type'), response.headers.get('cache-control'), response.text]).toEqual([
      200,
      'text/event-stream',
      'no-cache',
      '',
    ]);
  });

  it('writes a comment line each heartbeat period', async () => {
    const stream = await open('/events');
    await stream.until((reader) => reader.comments.filter((comment) => comment === 'keep-alive').length >= 2, 'two heartbeats');
    expect(stream.events).toEqual([]);
    stream.close();
  });

  /** Opens a stream once the bound lets it (a stream closed just before may still be counted for a moment). */
  const openWhenFree = async (path: string): Promise<EventStreamReader> => {
    const deadline = Date.now() + 15_000;
    let stream = await open(path);
    while (stream.status === 503 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      stream = await open(path);
    }
    expect(stream.status).toBe(200);
    await stream.until((reader) => reader.comments.includes('ready'), `the stream of ${path}`);
    return stream;
  };

  it('answers 503 with retry-after past the bound on open streams, and serves again once one closes', async () => {
    const first = await openWhenFree('/events');
    await openWhenFree(`/repos/${repositoryByName(built, 'acme').rid}/events`);
    const refused = await getJson(`${server.baseUrl}/api/v1/events`);
    expect([refused.status, refused.text]).toEqual([503, '{"error":"Service Unavailable: too many event streams open, retry later","code":503}']);
    expect(refused.headers.get('retry-after')).toBe('10');
    first.close();
    await openWhenFree('/events');
  });
});

describe('event streams and shutdown', () => {
  it('ends every open stream when the server closes, so closing never waits on them', async () => {
    const dir = await makeTempDir();
    try {
      const built = await buildEventsHome(join(dir, 'home'), [{ name: 'acme' }]);
      const server = await startTestServer({ home: built.home });
      const stream = await openEventStream(`${server.baseUrl}/api/v1/repos/${repositoryByName(built, 'acme').rid}/events`);
      await stream.until((reader) => reader.comments.includes('ready'), 'the ready comment');
      await server.close();
      await stream.until((reader) => reader.ended(), 'the end of the stream');
      expect(stream.events).toEqual([]);
    } finally {
      await removeTempDir(dir);
    }
  }, 60_000);
});
