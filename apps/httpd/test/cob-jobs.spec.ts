import type { Job } from '@forge-httpd/api-types';
import { type CobWriteContext, createJob, finishJobRun, startJobRun } from '@forge-httpd/cob/write';
import type { Oid } from '@forge-httpd/storage';
import { type BuiltHome, buildNodeHome, peerByAlias } from '@forge-httpd/builder';
import { expectGolden, getJson, makeTempDir, removeTempDir, startTestServer, type TestServer } from './support/index.js';

let dir: string;
let built: BuiltHome;
let server: TestServer;
let head: Oid;
let parent: Oid;

function as(alias: string, extra: Partial<CobWriteContext> = {}): CobWriteContext {
  const peer = peerByAlias(built.context, alias);
  const repo = built.repos[0];
  if (repo === undefined) throw new Error('no repository');
  return { gitDir: repo.gitDir, keyPair: peer.keyPair, alias, time: built.context.clock.tick(), flavour: 'forge', ...extra };
}

function url(path: string): string {
  return `${server.baseUrl}/api/v1/repos/${built.repos[0]?.rid}${path}`;
}

const RUN = (n: number): string => `00000000-0000-4000-8000-00000000000${n}`;

beforeAll(async () => {
  dir = await makeTempDir();
  built = await buildNodeHome({
    home: `${dir}/home`,
    seed: 'a'.repeat(64),
    alias: 'alice',
    peers: [{ alias: 'ci' }, { alias: 'eve', known: false }],
    repos: [{ name: 'acme' }],
  });
  const repo = built.repos[0];
  if (repo === undefined) throw new Error('no repository');
  head = repo.head;
  const { execFileSync } = await import('node:child_process');
  parent = execFileSync('git', [`--git-dir=${repo.gitDir}`, 'rev-parse', `${head}^`], { encoding: 'utf8' }).trim() as Oid;
  // Two CI nodes run jobs for the head; one job for its parent; one request for no commit.
  const job = await createJob(as('ci'), { commit: head });
  await startJobRun(as('ci'), { job, runId: RUN(2), log: 'https://ci.example.com/runs/2' });
  await startJobRun(as('ci'), { job, runId: RUN(1), log: 'https://ci.example.com/runs/1' });
  await finishJobRun(as('ci'), { job, runId: RUN(1), succeeded: false });
  await finishJobRun(as('ci'), { job, runId: RUN(2), succeeded: true });
  await startJobRun(as('eve'), { job, runId: RUN(3), log: 'https://eve.example.org/log?run=3' });
  // A finish for an unknown run, and a second start of a known run, change nothing.
  await finishJobRun(as('eve'), { job, runId: RUN(9), succeeded: true });
  await startJobRun(as('eve'), { job, runId: RUN(3), log: 'https://eve.example.org/other' });
  await createJob(as('eve'), { commit: head });
  await createJob(as('ci'), { commit: parent });
  await createJob(as('ci', { force: true }), { commit: 'e'.repeat(40) as Oid });
  server = await startTestServer({ home: built.home });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await removeTempDir(dir);
});

describe('GET /repos/{rid}/jobs/{sha}', () => {
  it('lists the jobs of a commit by job id with runs per node and their status', async () => {
    const response = await getJson(url(`/jobs/${head}`));
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBeNull();
    const jobs = response.body as Job[];
    expect(jobs.map((job) => job.jobId)).toEqual([...jobs.map((job) => job.jobId)].sort());
    expectGolden('cob-jobs-head', response.body);
  });

  it('leaves out jobs that no node ran', async () => {
    // The head has a second job (eve's) with no run; the parent has only a job with no run.
    const jobs = (await getJson(url(`/jobs/${head}`))).body as Job[];
    expect(jobs).toHaveLength(1);
    expect(jobs.every((job) => job.commit === head && job.runs.length > 0)).toBe(true);
    expect((await getJson(url(`/jobs/${parent}`))).body).toEqual([]);
  });

  it.each([
    ['e'.repeat(40), 200, []],
    ['0'.repeat(40), 200, []],
    ['nope', 400, undefined],
  ])('answers %s with %s', async (sha, status, body) => {
    const response = await getJson(url(`/jobs/${sha}`));
    expect(response.status).toBe(status);
    if (body !== undefined) expect(response.body).toEqual(body);
  });
});
