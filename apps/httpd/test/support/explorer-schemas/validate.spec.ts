import { explorerProblems, registerServerFlavour } from './validate.js';

const BASE = 'http://127.0.0.1:1';
const RADICLE = 'http://127.0.0.1:2';
const JSON_TYPE = 'application/json; charset=utf-8';
const OID = 'a'.repeat(40);
const PERSON = { name: 'A', email: 'a@example.org' };
const HEADER = { id: OID, author: PERSON, summary: 's', description: '', parents: [], committer: { ...PERSON, time: 1 } };
const PLAIN = { type: 'plain', hunks: [], stats: { additions: 1, deletions: 0 }, eof: 'noneMissing' };

function problems(path: string, body: unknown, status = 200, base = BASE): string[] {
  return explorerProblems({ url: `${base}${path}`, status, contentType: JSON_TYPE, text: JSON.stringify(body) });
}

function commitWith(diff: unknown): unknown {
  const file = { status: 'added', path: 'f', diff, new: { oid: OID, mode: 'blob' } };
  return { commit: HEADER, diff: { files: [file], stats: { filesChanged: 1, insertions: 1, deletions: 0 } }, branches: [], files: {} };
}

beforeAll(() => registerServerFlavour(RADICLE, 'radicle'));

describe('explorerProblems', () => {
  it.each([
    ['a plain diff without hunks', PLAIN],
    ['a cut file with tooLarge (unknown keys are ignored)', { ...PLAIN, tooLarge: true }],
    ['a binary file', { type: 'binary' }],
  ])('accepts a commit whose file has %s', (_, diff) => {
    expect(problems(`/api/v1/repos/rad:z1/commits/${OID}`, commitWith(diff))).toEqual([]);
  });

  it.each([
    ['an unknown content type', { type: 'tooLarge' }, 'diff.files.0'],
    ['a null hunk header', { ...PLAIN, hunks: [{ header: null, lines: [] }] }, 'diff.files.0'],
  ])('rejects a commit whose file has %s, naming the path and where', (_, diff, where) => {
    const found = problems(`/api/v1/repos/rad:z1/commits/${OID}`, commitWith(diff));
    expect(found.length).toBeGreaterThan(0);
    expect(found[0]).toContain(`GET /api/v1/repos/rad:z1/commits/${OID} (200): at ${where}`);
  });

  it('reads the project payload under the key of the server flavour', () => {
    const meta = { head: OID, patches: { open: 0, draft: 0, archived: 0, merged: 0 }, issues: { open: 0, closed: 0 } };
    const repo = (key: string) => ({
      rid: 'rad:z1',
      payloads: { [key]: { data: { name: 'n', description: '', defaultBranch: 'main' }, meta } },
      delegates: [{ id: 'did:key:z6Mk' }],
      threshold: 1,
      visibility: { type: 'public' },
      seeding: 0,
    });
    expect(problems('/api/v1/repos/rad:z1', repo('xyz.forge.project'))).toEqual([]);
    expect(problems('/api/v1/repos/rad:z1', repo('xyz.radicle.project'), 200, RADICLE)).toEqual([]);
    expect(problems('/api/v1/repos/rad:z1', repo('xyz.radicle.project'))).not.toEqual([]);
  });

  it.each([
    ['a 404', { error: 'Not Found', code: 404 }, 404],
    ['the 413 of blobs', [], 413],
  ])('accepts %s as an error body', (_, body, status) => {
    expect(problems('/api/v1/repos/rad:z1', body, status)).toEqual([]);
  });

  it.each([
    ['another shape', { message: 'x' }, 400, 'error body at error: Invalid input'],
    ['a code that is not the status', { error: 'Not Found', code: 400 }, 404, 'error body code 400 differs from the status'],
  ])('rejects an error body with %s', (_, body, status, issue) => {
    expect(problems('/x', body, status)[0]).toContain(`GET /x (${status}): ${issue}`);
  });

  it('reports a JSON route it has no schema for, and skips the routes the explorer never reads', () => {
    expect(problems('/api/v1/unknown', {})).toEqual(['GET /api/v1/unknown (200): no explorer schema for this route (add it to explorer-schemas/routes.ts)']);
    expect(problems('/api', { links: [] })).toEqual([]);
  });

  it('matches the tree route with and without a path, and a query string', () => {
    const tree = { entries: [], lastCommit: HEADER, name: '', path: '' };
    expect(problems(`/api/v1/repos/rad:z1/tree/${OID}/`, tree)).toEqual([]);
    expect(problems(`/api/v1/repos/rad:z1/tree/${OID}/src/lib`, tree)).toEqual([]);
    expect(problems('/api/v1/repos/rad:z1/commits?perPage=3', [HEADER])).toEqual([]);
  });
});
