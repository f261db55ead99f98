import { Agent } from 'node:http';
import { ridDirectoryName } from '@forge-httpd/identity';
import { repositoryByName } from '@forge-httpd/builder';
import fc from 'fast-check';
import { findFuzzProblem, fuzzRequestArbitrary, type FuzzValues, type PrivateData, sendFuzzRequest } from '@forge-httpd/tools/fuzz';
import { routesOf } from '../src/app.factory.js';
import { ABSENT_RID, getJson, useFixtureServer } from './support/index.js';

// Property-based requests over every route the server registered (taken from Fastify, so new
// routes are fuzzed too): parameters from the fixture home's real ids (the private repository
// included) and generated junk, random queries, headers and methods. A fixed seed keeps runs
// reproducible; `npm run fuzz` runs the same generators for as long as wanted.
const fixture = useFixtureServer();
const SEED = 20261123;
const RUNS = 400;

describe('fuzzed requests over every registered route', () => {
  it('never answer 5xx, always answer errors as {error, code} JSON, never show the private repository, and leave the server answering', async () => {
    const routes = routesOf(fixture.server.server.app);
    expect(routes.length).toBeGreaterThan(40);
    const secret = repositoryByName(fixture.built, 'secret');
    const alpha = repositoryByName(fixture.built, 'alpha');
    const values: FuzzValues = {
      rids: [...fixture.built.repos.map((repo) => repo.rid as string), ABSENT_RID],
      oids: fixture.built.repos.flatMap((repo) => [repo.head, repo.identityHead]),
      nids: [fixture.nid('seed'), fixture.nid('bob'), fixture.nid('dave')],
      paths: alpha.headTip === null ? ['README.md'] : Object.keys(alpha.headTip.files),
    };
    const hidden: PrivateData = {
      rids: [ridDirectoryName(secret.rid)],
      secrets: [ridDirectoryName(secret.rid), secret.identityHead],
      unfilteredPrefixes: ['/api/v1/node/policies/', '/api/v1/nodes/', '/api/v1/stats'],
    };
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    try {
      await fc.assert(
        fc.asyncProperty(fuzzRequestArbitrary(routes, values), async (request) => {
          const answer = await sendFuzzRequest(fixture.server.baseUrl, request, agent);
          const problem = findFuzzProblem(request, answer, hidden);
          if (problem !== null) throw new Error(`${request.method} ${request.path}: ${problem}`);
        }),
        {
          seed: SEED,
          numRuns: RUNS,
          // Found by this property: a body labelled gzip that does not gunzip was a 500.
          examples: [
            [
              {
                method: 'POST',
                path: `/${alpha.rid}.git/git-upload-pack`,
                headers: { 'content-type': 'application/x-git-upload-pack-request', 'content-encoding': 'gzip' },
                body: Buffer.from('no gzip'),
              },
            ],
          ],
        },
      );
    } finally {
      agent.destroy();
    }
    expect((await getJson(fixture.url('/api/v1'))).status).toBe(200);
  }, 120_000);
});
