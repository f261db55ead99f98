import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ridFromOid } from '@forge-httpd/identity';
import type { RequestRecord } from '../telemetry/request-record.js';
import { KEPT_VISITED, VisitedRepositories } from './visited-repositories.js';

const ridOf = (n: number): string => ridFromOid(n.toString(16).padStart(40, '0'));
const RID_A = ridOf(1);
const RID_B = ridOf(2);

function visit(url: string, options: { status?: number; route?: string } = {}): RequestRecord {
  return {
    id: '1',
    method: 'GET',
    route: options.route ?? '/api/v1/repos/:rid/commits',
    url,
    status: options.status ?? 200,
    durationMs: 1,
    bytes: 10,
    cache: null,
    ip: '127.0.0.1',
  };
}

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'forge-visited-'));
  file = path.join(dir, 'cache', 'visited.json');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('VisitedRepositories', () => {
  it('counts repository pages answered 200 or 304, whatever the RID spelling', () => {
    const visited = new VisitedRepositories(null);
    visited.record(visit(`/api/v1/repos/${RID_A}/commits?page=2`));
    // A browser asking again with the ETag it holds visits too.
    visited.record(visit(`/api/v1/repos/${RID_A}/commits?page=2`, { status: 304 }));
    visited.record(visit(`/api/v1/repos/${RID_B.slice(4)}`, { route: '/api/v1/repos/:rid' }));
    visited.record(visit(`/api/v1/repos/rad%3A${RID_B.slice(4)}/tree/abc/src`, { route: '/api/v1/repos/:rid/tree/:sha/*' }));
    // Not visits: failed pages, another route, a listing, a spelling that names no RID.
    visited.record(visit(`/api/v1/repos/${RID_A}/commits`, { status: 404 }));
    visited.record(visit(`/api/v1/repos/${RID_A}/commits`, { status: 400 }));
    visited.record(visit(`/api/v1/repos/${RID_A}/commits`, { status: 503 }));
    visited.record(visit(`/api/v1/repos/search?q=${RID_A}`, { route: '/api/v1/repos/search' }));
    visited.record(visit(`/${RID_A}.git/info/refs`, { route: '/:rid.git/info/refs' }));
    visited.record(visit('/api/v1/repos/rad:nonsense/commits'));
    for (let i = 0; i < 3; i += 1) visited.record(visit(`/api/v1/repos/${RID_B}`, { route: '/api/v1/repos/:rid' }));
    expect(visited.mostVisited()).toEqual([RID_B, RID_A]);
    for (let i = 0; i < 4; i += 1) visited.record(visit(`/api/v1/repos/${RID_A}`, { route: '/api/v1/repos/:rid' }));
    expect(visited.mostVisited()).toEqual([RID_A, RID_B]);
  });

  it('ignores requests made while paused', async () => {
    const visited = new VisitedRepositories(null);
    let finish = (): void => undefined;
    const work = new Promise<void>((resolve) => (finish = resolve));
    visited.pauseWhile(work);
    visited.record(visit(`/api/v1/repos/${RID_A}/commits`));
    finish();
    await work;
    await Promise.resolve();
    expect(visited.mostVisited()).toEqual([]);
    visited.record(visit(`/api/v1/repos/${RID_A}/commits`));
    expect(visited.mostVisited()).toEqual([RID_A]);
  });

  it('keeps the most visited in a file, halved at the next start so old favourites fade', async () => {
    const first = new VisitedRepositories(file);
    for (let i = 0; i < 4; i += 1) first.record(visit(`/api/v1/repos/${RID_A}/commits`));
    first.record(visit(`/api/v1/repos/${RID_B}/commits`));
    first.flush();
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual([
      { rid: RID_A, visits: 4 },
      { rid: RID_B, visits: 1 },
    ]);
    const second = new VisitedRepositories(file);
    expect(second.mostVisited()).toEqual([RID_A, RID_B]);
    // 4 kept → 2; three new visits of B make 0.5 + 3.
    for (let i = 0; i < 3; i += 1) second.record(visit(`/api/v1/repos/${RID_B}`, { route: '/api/v1/repos/:rid' }));
    expect(second.mostVisited()).toEqual([RID_B, RID_A]);
    second.flush();
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual([
      { rid: RID_B, visits: 3.5 },
      { rid: RID_A, visits: 2 },
    ]);
  });

  it(`keeps at most ${KEPT_VISITED} repositories`, async () => {
    const visited = new VisitedRepositories(file);
    const rids = Array.from({ length: KEPT_VISITED + 3 }, (_, i) => ridOf(100 + i));
    rids.forEach((rid, i) => {
      for (let n = 0; n <= i; n += 1) visited.record(visit(`/api/v1/repos/${rid}/commits`));
    });
    const kept = visited.mostVisited(100);
    expect(kept).toEqual([...rids].reverse());
    visited.flush();
    const written = JSON.parse(await readFile(file, 'utf8')) as Array<{ rid: string }>;
    expect(written.map((entry) => entry.rid)).toEqual(kept.slice(0, KEPT_VISITED));
  });

  it('reads a damaged or foreign file as nothing kept', async () => {
    new VisitedRepositories(file).flush();
    for (const text of [
      '{',
      '{"rid": 1}',
      JSON.stringify([
        { rid: 'rad:nonsense', visits: 3 },
        { rid: RID_A, visits: 'many' },
        { rid: RID_B, visits: -1 },
      ]),
    ]) {
      await writeFile(file, text);
      expect(new VisitedRepositories(file).mostVisited()).toEqual([]);
    }
    await writeFile(
      file,
      JSON.stringify([
        { rid: 'rad:nonsense', visits: 3 },
        { rid: RID_A, visits: 2 },
      ]),
    );
    expect(new VisitedRepositories(file).mostVisited()).toEqual([RID_A]);
  });
});
