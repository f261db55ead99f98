import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { request as httpRequest } from 'node:http';
import type { Commit, CommitDetail, RangeDiffResponse } from '@forge-httpd/api-types';
import { repositoryByName } from '@forge-httpd/builder';
import { execGit, type ScratchCommit } from '@forge-httpd/builder/scratch';
import { getJson, getUndecoded, type ScratchServer, startScratchServer } from './support/index.js';

const T = 1_700_000_000;
/** Past the 256 commits a range page reads in memory: such pages are written as they are read. */
const LINEAR = 600;
const COMMITS: ScratchCommit[] = Array.from({ length: LINEAR }, (_, i) => ({
  message: `Step ${i}\n\nBody of step ${i} with "quotes", a tab\tand ünïcode.\n`,
  time: T + i * 60,
  changes: [{ path: `dir-${i % 7}/file-${i % 13}.txt`, content: `step ${i}\n` }],
}));
const TIP = LINEAR - 1;
/** The range's end: a base outside its history (a later commit) lists all of it, 401 commits. */
const MIDDLE = 400;

let scratch: ScratchServer;

beforeAll(async () => {
  scratch = await startScratchServer({ name: 'long', seed: 'e3'.repeat(32), time: T, commits: COMMITS });
}, 60_000);
afterAll(() => scratch?.close());

const gitDir = () => repositoryByName(scratch.built, 'long').gitDir;
const repoUrl = () => `${scratch.server.baseUrl}/api/v1/repos/${repositoryByName(scratch.built, 'long').rid}`;
const revList = async (...args: string[]) =>
  (await execGit({ gitDir: gitDir(), args: ['rev-list', ...args] }))
    .toString()
    .trim()
    .split('\n')
    .filter((line) => line !== '');

describe('GET /repos/{rid}/commits with since/until and no perPage over long histories', () => {
  it('lists every match newest first, as one valid JSON array, also with parent', async () => {
    const { ids } = scratch;
    const all = await getJson(`${repoUrl()}/commits?since=${T}`);
    expect(all.status).toBe(200);
    const listed = (all.body as Commit[]).map((commit) => commit.id);
    expect(listed).toEqual(await revList(ids[TIP] as string));
    expect(all.text).toBe(JSON.stringify(all.body));
    expect(all.headers.get('etag')).toBeNull();
    const window = (await getJson(`${repoUrl()}/commits?parent=${ids[MIDDLE]}&since=${T + 60 * 10}&until=${T + 60 * 390}`)).body as Commit[];
    expect(window.map((commit) => commit.id)).toEqual(ids.slice(10, 390).reverse());
    const short = await getJson(`${repoUrl()}/commits?since=${T + 60 * (TIP - 4)}`);
    expect((short.body as Commit[]).map((commit) => commit.id)).toEqual(ids.slice(TIP - 4).reverse());
    expect(short.headers.get('etag')).not.toBeNull();
  });
});

describe('GET /repos/{rid}/diff/{base}/{oid} over long ranges', () => {
  it('lists the whole history in rev-list order when base is outside it, as one valid JSON answer', async () => {
    const { ids } = scratch;
    const response = await getJson(`${repoUrl()}/diff/${ids[TIP]}/${ids[MIDDLE]}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=604800, immutable');
    const body = response.body as RangeDiffResponse;
    expect(body.commits.map((commit) => commit.id)).toEqual(await revList(ids[MIDDLE] as string));
    expect(body.commits).toHaveLength(MIDDLE + 1);
    // Byte for byte what serialising the whole answer at once gives.
    expect(response.text).toBe(JSON.stringify(body));
    expect(Object.keys(body)).toEqual(['diff', 'files', 'commits']);
    expect(body.diff.stats.filesChanged).toBeGreaterThan(0);
  });

  it('shows each listed commit as the commit page does', async () => {
    const { ids } = scratch;
    const body = (await getJson(`${repoUrl()}/diff/${ids[TIP]}/${ids[MIDDLE]}`)).body as RangeDiffResponse;
    for (const index of [MIDDLE, MIDDLE - 255, MIDDLE - 256, MIDDLE - 257, 0]) {
      const page = (await getJson(`${repoUrl()}/commits/${ids[index]}`)).body as CommitDetail;
      expect(body.commits[MIDDLE - index]).toEqual(page.commit);
    }
  });

  it('stops at base when base is an ancestor hundreds of commits back', async () => {
    const { ids } = scratch;
    const body = (await getJson(`${repoUrl()}/diff/${ids[100]}/${ids[TIP]}`)).body as RangeDiffResponse;
    expect(body.commits.map((commit) => commit.id)).toEqual(await revList(ids[TIP] as string, `^${ids[100]}`));
    expect(body.commits).toHaveLength(TIP - 100);
  });

  it('compresses the written answer as it goes, gzip and br alike, and varies on accept-encoding', async () => {
    const { ids } = scratch;
    const url = `${repoUrl()}/diff/${ids[TIP]}/${ids[MIDDLE]}`;
    const identity = (await getJson(url)).text;
    const gzip = await getUndecoded(url, { headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers['vary']).toContain('accept-encoding');
    expect(gunzipSync(gzip.body).toString('utf8')).toBe(identity);
    const br = await getUndecoded(url, { headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).toString('utf8')).toBe(identity);
    expect(br.body.length).toBeLessThan(identity.length / 4);
    expect([gzip.headers['etag'], br.headers['etag']]).toEqual([undefined, undefined]);
  });

  it('keeps serving after clients that leave in the middle of such answers', async () => {
    const { ids } = scratch;
    const { hostname, port } = new URL(scratch.server.baseUrl);
    const path = `${new URL(repoUrl()).pathname}/diff/${ids[TIP]}/${ids[MIDDLE]}`;
    const leavers = Array.from(
      { length: 6 },
      () =>
        new Promise<number>((resolve, reject) => {
          const req = httpRequest({ host: hostname, port, path }, (res) => {
            res.once('data', () => {
              resolve(res.statusCode ?? 0);
              req.destroy();
            });
          });
          req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
          req.end();
        }),
    );
    expect(await Promise.all(leavers)).toEqual(Array.from({ length: 6 }, () => 200));
    const after = await getJson(`${repoUrl()}/diff/${ids[TIP]}/${ids[MIDDLE]}`);
    expect(after.status).toBe(200);
    expect((after.body as RangeDiffResponse).commits).toHaveLength(MIDDLE + 1);
  });

  it('answers HEAD with the headers only', async () => {
    const { ids } = scratch;
    const response = await fetch(`${repoUrl()}/diff/${ids[TIP]}/${ids[MIDDLE]}`, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.text()).toBe('');
  });
});
