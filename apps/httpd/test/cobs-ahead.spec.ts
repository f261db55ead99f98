import { mkdir, rename, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Issue, RepoInfo } from '@forge-httpd/api-types';
import type { CobEvaluation } from '@forge-httpd/cob';
import { type CobWriteContext, createIssue, setIssueState } from '@forge-httpd/cob/write';
import type { Oid } from '@forge-httpd/storage';
import { peerByAlias, repositoryByName } from '@forge-httpd/builder';
import { CobEvaluations } from '../src/cobs/cob-evaluations.js';
import { CobStoreService } from '../src/cobs/cob-store.service.js';
import { RequestsInFlight } from '../src/platform/requests-in-flight.js';
import { RepositoryAccess } from '../src/repository-access/repository-access.service.js';
import { evaluateCobsAhead, type CobsAheadOptions } from '../src/warm-up/evaluate-cobs-ahead.js';
import { getJson, useFixtureServer } from './support/index.js';

// Issues and patches evaluated in the background after start-up (issue 14): the first visitor's
// repository page and issue listing must find them evaluated, and the pass must go through the
// same privacy gate as every request.

const fixture = useFixtureServer();
const opened: Record<string, Oid> = {};
let evaluated: CobEvaluation[] = [];

/** A write context for a peer of the fixture home, on one of its repositories. */
function write(repo: string, alias: string): CobWriteContext {
  const { built } = fixture;
  return {
    gitDir: repositoryByName(built, repo).gitDir,
    keyPair: peerByAlias(built.context, alias).keyPair,
    alias,
    time: built.context.clock.tick(),
    flavour: 'forge',
  };
}

beforeAll(async () => {
  opened['alpha'] = await createIssue(write('alpha', 'bob'), { title: 'Ahead of time', description: 'Evaluated before anyone asks.' });
  opened['alpha-closed'] = await createIssue(write('alpha', 'carol'), { title: 'Closed ahead', description: 'Then closed.' });
  await setIssueState(write('alpha', 'carol'), { issue: opened['alpha-closed'], state: { status: 'closed', reason: 'solved' } });
  opened['beta'] = await createIssue(write('beta', 'bob'), { title: 'In beta', description: 'A second repository.' });
  opened['secret'] = await createIssue(write('secret', 'bob'), { title: 'Private matter', description: 'Never read in the background.' });
  fixture.server.server.app.get(CobEvaluations).listen((evaluation) => evaluated.push(evaluation));
});

function aheadOptions(extra: Partial<CobsAheadOptions> = {}): CobsAheadOptions {
  const { app, home } = fixture.server.server;
  return { home, access: app.get(RepositoryAccess), cobs: app.get(CobStoreService), pace: () => Promise.resolve(), maxObjects: 1000, ...extra };
}

describe('issues and patches evaluated ahead', () => {
  it('evaluates every public repository with COB refs, never a private one, and the first pages then evaluate nothing', async () => {
    evaluated = [];
    const paced = { start: 0, repository: 0, object: 0 };
    const viewed: string[] = [];
    const cobs = fixture.server.server.app.get(CobStoreService);
    const report = await evaluateCobsAhead(
      aheadOptions({
        pace: (step) => Promise.resolve(void paced[step]++),
        cobs: { view: (repository) => (viewed.push(repository.rid), cobs.view(repository)) },
      }),
    );
    expect(report.complete).toBe(true);
    // Only repositories whose ref files show issue or patch refs are listed through git (every
    // repository has an identity COB; the fixture's others have no issue or patch).
    expect(viewed.sort()).toEqual([fixture.rid('alpha'), fixture.rid('beta')].sort());
    const evaluatedRids = new Set(evaluated.map((evaluation) => evaluation.rid));
    expect(evaluatedRids.has(fixture.rid('alpha'))).toBe(true);
    expect(evaluatedRids.has(fixture.rid('beta'))).toBe(true);
    expect(evaluatedRids.has(fixture.rid('secret'))).toBe(false);
    expect(report.withObjects).toBe(evaluatedRids.size);
    expect(report.objects).toBe(evaluated.filter((evaluation) => /\.(issue|patch)$/.test(evaluation.typeName)).length);
    const publicCount = fixture.server.server.home.storageIndex.list().filter((summary) => summary.document?.visibility.type === 'public').length;
    expect(report.repositories).toBe(publicCount);
    // Paced once before it begins, then before each repository and each object (a worker may
    // pace once more and find none left).
    expect(paced.start).toBe(1);
    expect(paced.repository).toBe(report.repositories);
    expect(paced.object).toBeGreaterThanOrEqual(report.objects);

    evaluated = [];
    const alpha = `/api/v1/repos/${fixture.rid('alpha')}`;
    const info = await getJson(fixture.url(alpha));
    expect(info.status).toBe(200);
    const meta = Object.values((info.body as RepoInfo).payloads).map((payload) => (payload as { meta?: { issues?: unknown } }).meta?.issues);
    expect(meta).toContainEqual({ open: 1, closed: 1 });
    const open = (await getJson(fixture.url(`${alpha}/issues`))).body as Issue[];
    expect(open.map((issue) => issue.id)).toEqual([opened['alpha']]);
    const all = (await getJson(fixture.url(`${alpha}/issues?status=all`))).body as Issue[];
    expect(all.map((issue) => issue.title).sort()).toEqual(['Ahead of time', 'Closed ahead']);
    expect((await getJson(fixture.url(`${alpha}/patches?status=all`))).status).toBe(200);
    expect(((await getJson(fixture.url(`/api/v1/repos/${fixture.rid('beta')}/issues`))).body as Issue[]).map((issue) => issue.id)).toEqual([opened['beta']]);
    expect(evaluated).toEqual([]);
    // The private repository answers as absent, evaluated or not.
    expect((await getJson(fixture.url(`/api/v1/repos/${fixture.rid('secret')}/issues`))).status).toBe(404);
  });

  it('evaluates again only what moved since, and stops before the next repository once aborted', async () => {
    await evaluateCobsAhead(aheadOptions());
    evaluated = [];
    const again = await evaluateCobsAhead(aheadOptions());
    expect(again.complete).toBe(true);
    expect(evaluated).toEqual([]);
    const aborted = new AbortController();
    aborted.abort();
    const stopped = await evaluateCobsAhead(aheadOptions({ signal: aborted.signal }));
    expect(stopped).toMatchObject({ complete: false, repositories: 0, objects: 0 });
  });

  it('leaves a repository whose objects would pass its bound to the first visitor', async () => {
    for (const title of ['One more', 'Two more', 'Three more']) {
      await createIssue(write('gamma-alpha', 'carol'), { title, description: 'Past the bound.' });
    }
    evaluated = [];
    // gamma-alpha's three issues never fit in two, whatever the order of the repositories.
    const bounded = await evaluateCobsAhead(aheadOptions({ maxObjects: 2 }));
    expect(bounded.complete).toBe(true);
    expect(bounded.skipped).toBeGreaterThanOrEqual(1);
    expect(evaluated.filter((evaluation) => evaluation.rid === fixture.rid('gamma-alpha'))).toEqual([]);
    const unbounded = await evaluateCobsAhead(aheadOptions({ maxObjects: 6 }));
    expect(unbounded).toMatchObject({ complete: true, objects: 6, withObjects: 3, skipped: 0 });
    expect(evaluated.map((evaluation) => evaluation.rid)).toEqual(Array(3).fill(fixture.rid('gamma-alpha')));
  });
});

describe('issues and patches evaluated ahead, on broken storage', () => {
  it('goes on past a repository it cannot list, and says which', async () => {
    const { built } = fixture;
    const gitDir = repositoryByName(built, 'gamma-alpha').gitDir;
    await createIssue(write('Alphabet', 'dave'), { title: 'After the broken one', description: 'Still evaluated.' });
    // A directory where git expects the packed-refs file: listing the refs fails.
    const packed = join(gitDir, 'packed-refs');
    const aside = `${packed}.aside`;
    await rename(packed, aside).catch(() => undefined);
    await mkdir(packed);
    const failed: string[] = [];
    try {
      evaluated = [];
      const report = await evaluateCobsAhead(aheadOptions({ onError: (rid) => void failed.push(rid) }));
      expect(report.complete).toBe(true);
      expect(failed).toEqual([fixture.rid('gamma-alpha')]);
      expect(evaluated.map((evaluation) => evaluation.rid)).toContain(fixture.rid('Alphabet'));
    } finally {
      await rm(packed, { recursive: true });
      await rename(aside, packed).catch(() => undefined);
    }
  });
});

describe('RequestsInFlight', () => {
  it('waits while requests are in flight or started lately, and never longer than its bound', async () => {
    const held: http.ServerResponse[] = [];
    // When the server saw the last request (its handler runs just before the watcher's).
    let lastArrived = 0;
    const server = http.createServer((_request, response) => {
      lastArrived = performance.now();
      held.push(response);
    });
    const inFlight = new RequestsInFlight(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const arrivals = async (count: number): Promise<void> => {
      while (held.length < count) await new Promise((resolve) => setTimeout(resolve, 2));
    };
    const forever = { quietMs: 30, maxWaitMs: Number.POSITIVE_INFINITY };
    try {
      const started = performance.now();
      await inFlight.whenQuiet(forever);
      expect(performance.now() - started).toBeLessThan(20);
      const answered = fetch(`http://127.0.0.1:${port}/a`).then((response) => response.text());
      const abandoned = new AbortController();
      const gone = fetch(`http://127.0.0.1:${port}/b`, { signal: abandoned.signal }).catch(() => 'aborted');
      await arrivals(2);
      expect(inFlight.size).toBe(2);
      let quietAt = 0;
      const waiting = inFlight.whenQuiet(forever).then(() => void (quietAt = performance.now()));
      held[0]?.end('done');
      expect(await answered).toBe('done');
      expect(inFlight.size).toBe(1);
      expect(quietAt).toBe(0);
      abandoned.abort();
      expect(await gone).toBe('aborted');
      // The server sees the client go a moment after the client gave up.
      while (inFlight.size > 0) await new Promise((resolve) => setTimeout(resolve, 2));
      await waiting;
      // Quiet: none in flight, and none started for 30 ms (timed from the server's side: a
      // client polling for the arrival saw it late on a loaded machine, and the gap shrank).
      expect(quietAt - lastArrived).toBeGreaterThanOrEqual(29);
      // A request that stays (a clone, a slow download) holds a waiter only so long.
      const staying = fetch(`http://127.0.0.1:${port}/c`).then((response) => response.text());
      await arrivals(3);
      const bounded = performance.now();
      await inFlight.whenQuiet({ quietMs: 30, maxWaitMs: 40 });
      expect(performance.now() - bounded).toBeGreaterThanOrEqual(35);
      expect(inFlight.size).toBe(1);
      held[2]?.end('late');
      expect(await staying).toBe('late');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
