import { openApiProblems } from './openapi-check.js';

const BASE = 'http://127.0.0.1:1';
const RID = 'rad:z3gqcJUoA1n9HaHKufZs5FCSGazv5';
const OID = 'a'.repeat(40);
const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };
const PERSON = { name: 'A', email: 'a@example.org' };
const COMMIT = { id: OID, author: PERSON, summary: 's', description: '', parents: [], committer: { ...PERSON, time: 1 } };

function problems(path: string, body: unknown, options: { status?: number; headers?: Record<string, string>; method?: string } = {}): string[] {
  return openApiProblems({
    url: `${BASE}${path}`,
    method: options.method ?? 'GET',
    status: options.status ?? 200,
    headers: new Headers({ ...JSON_HEADERS, ...options.headers }),
    text: JSON.stringify(body),
  });
}

describe('openApiProblems', () => {
  it('accepts a body of the documented shape', () => {
    expect(problems(`/api/v1/repos/${RID}/commits`, [COMMIT])).toEqual([]);
  });

  it('reports a key the document does not list, and a value of the wrong type', () => {
    expect(problems(`/api/v1/repos/${RID}/commits`, [{ ...COMMIT, extra: 1 }]).join('\n')).toContain('"additionalProperty":"extra"');
    expect(problems(`/api/v1/repos/${RID}/commits`, [{ ...COMMIT, parents: ['HEAD'] }]).join('\n')).toContain('/0/parents/0');
  });

  it('keeps the project payload open (unknown payload keys are stored data)', () => {
    const repo = {
      payloads: {
        'xyz.forge.project': {
          data: { defaultBranch: 'main', description: '', name: 'n', extra: 1 },
          meta: { head: OID, issues: { open: 0, closed: 0 }, patches: { open: 0, draft: 0, archived: 0, merged: 0 } },
        },
      },
      delegates: [],
      threshold: 1,
      visibility: { type: 'public' },
      rid: RID,
      seeding: 0,
      refs: { tags: {}, refs: {} },
    };
    expect(problems(`/api/v1/repos/${RID}`, repo)).toEqual([]);
  });

  it('checks a documented cache-control value', () => {
    const stats = { commits: 1 };
    const path = `/api/v1/repos/${RID}/stats/commits/${OID}`;
    expect(problems(path, stats, { headers: { 'cache-control': 'public, max-age=604800, immutable' } })).toEqual([]);
    expect(problems(path, stats)[0]).toContain('cache-control null');
  });

  it.each([
    ['the 413 of a blob as []', `/api/v1/repos/${RID}/blob/${OID}/a/b.txt`, 413, []],
    ['a 404 error body', `/api/v1/repos/${RID}/tree/${OID}/`, 404, { error: 'Not Found', code: 404 }],
    ['a 503 of an archive', `/raw/${RID}/${OID}.zip`, 503, { error: 'Service Unavailable', code: 503 }],
    ['a 403 of a push', `/${RID}.git/git-receive-pack`, 403, { error: 'Forbidden', code: 403 }],
  ])('accepts %s', (_, path, status, body) => {
    expect(problems(path, body, { status, method: path.endsWith('receive-pack') ? 'POST' : 'GET' })).toEqual([]);
  });

  it('reports an error body of the wrong shape', () => {
    expect(problems(`/api/v1/repos/${RID}`, { message: 'no' }, { status: 404 }).length).toBeGreaterThan(0);
  });

  it('leaves unknown routes to the generic error check', () => {
    expect(problems('/nothing/here', { error: 'Not Found', code: 404 }, { status: 404 })).toEqual([]);
  });
});
