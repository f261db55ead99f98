import { evaluateChanges } from '../dag/evaluate-changes.js';
import { alice, bob, change, env, oid } from '../testing/fixtures.testing.js';
import { jobFolder } from './fold-job.js';
import { viewJob } from './job-view.js';

const COMMIT = oid(0xc0);
const ROOT = oid(0x100);
const U1 = '11111111-1111-4111-8111-111111111111';
const U2 = '22222222-2222-4222-8222-222222222222';

function evaluate(changes: ReturnType<typeof change>[], commits = [COMMIT]) {
  const root = change({ id: ROOT, author: alice.nid, actions: [{ Request: { oid: COMMIT } }] });
  const result = evaluateChanges({ rootId: ROOT, changes: [root, ...changes], folder: jobFolder(env({ commits })) });
  return result === null ? null : viewJob(result.state);
}

describe('job fold (radicle-job 0.6)', () => {
  it('records runs per node (the op author) and finishes them', () => {
    const job = evaluate([
      change({
        id: oid(0x201),
        parents: [ROOT],
        author: bob.nid,
        timestamp: 2,
        actions: [{ Run: { uuid: U2, log: 'https://ci.example/2' } }, { Run: { uuid: U1.toUpperCase(), log: 'https://ci.example/1' } }],
      }),
      change({
        id: oid(0x202),
        parents: [oid(0x201)],
        author: bob.nid,
        timestamp: 3,
        actions: [{ Finished: { uuid: U1, reason: 'Failed' } }, { Finished: { uuid: U2, reason: 'Succeeded' } }],
      }),
      change({
        id: oid(0x203),
        parents: [oid(0x202)],
        author: alice.nid,
        timestamp: 4,
        actions: [{ Run: { uuid: U1, log: 'https://alice.example' } }, { Request: { oid: oid(0xc1) } }],
      }),
    ]);
    expect(job?.commit).toBe(COMMIT);
    expect(job?.runs.map((run) => [run.node === bob.nid ? 'bob' : 'alice', run.runId, run.status])).toEqual(
      [alice.nid, bob.nid]
        .sort((a, b) => a.length - b.length || (a < b ? -1 : 1))
        .flatMap((nid) =>
          nid === bob.nid
            ? [
                ['bob', U1, 'failed'],
                ['bob', U2, 'succeeded'],
              ]
            : [['alice', U1, 'started']],
        ),
    );
  });

  it('ignores a second start of a known run and a finish of an unknown one', () => {
    const job = evaluate([
      change({
        id: oid(0x301),
        parents: [ROOT],
        actions: [{ Run: { uuid: U1, log: 'https://a/1' } }, { Run: { uuid: U1, log: 'https://a/2' } }, { Finished: { uuid: U2, reason: 'Failed' } }],
      }),
    ]);
    expect(job?.runs).toEqual([{ runId: U1, node: alice.nid, status: 'started', log: 'https://a/1' }]);
  });

  it('is invalid when the requested commit does not exist or the first action is not a request', () => {
    expect(evaluate([], [])).toBeNull();
    const bad = change({ id: ROOT, actions: [{ Run: { uuid: U1, log: 'https://a' } }] });
    expect(evaluateChanges({ rootId: ROOT, changes: [bad], folder: jobFolder(env({ commits: [COMMIT] })) })).toBeNull();
  });

  it('drops a change with an invalid log URL or reason', () => {
    const bad = change({ id: oid(0x401), parents: [ROOT], actions: [{ Run: { uuid: U1, log: 'not a url' } }] });
    const worse = change({ id: oid(0x402), parents: [ROOT], actions: [{ Finished: { uuid: U1, reason: 'Maybe' } }] });
    expect(evaluate([bad, worse])?.runs).toEqual([]);
  });
});
