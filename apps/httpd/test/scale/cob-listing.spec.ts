import type { Issue } from '@forge-httpd/api-types';
import { CobStore } from '@forge-httpd/cob';
import { commentIssue, writeChange } from '@forge-httpd/cob/write';
import { type Oid, openGitRepository } from '@forge-httpd/storage';
import { repackRepository, type RefUpdate, updateRefs, writeSignedRefs } from '@forge-httpd/storage/write';
import { type BuiltHome, buildNodeHome, peerByAlias } from '@forge-httpd/builder';
import { getJson, makeTempDir, removeTempDir, startTestServer, type TestServer } from '../support/index.js';
import { StorageRuntime } from '@forge-httpd/storage';

const runtime = new StorageRuntime();

const ISSUES = 2000;
let dir: string;
let built: BuiltHome;
let server: TestServer;

function repo() {
  const first = built.repos[0];
  if (first === undefined) throw new Error('no repository');
  return first;
}

/** Writes ISSUES issues from three peers in bulk (exact node bytes, one ref update per peer). */
async function writeManyIssues(): Promise<void> {
  const peers = ['alice', 'bob', 'carol'].map((alias) => peerByAlias(built.context, alias));
  const updates: RefUpdate[] = [];
  for (let i = 0; i < ISSUES; i++) {
    const peer = peers[i % peers.length] as (typeof peers)[number];
    const actions: unknown[] = [
      { type: 'comment', body: `Issue body ${i}` },
      { type: 'edit', title: `Issue ${i}` },
    ];
    // Every seventh issue is closed by its author in its root change.
    if (i % 7 === 0) actions.push({ type: 'lifecycle', state: { status: 'closed', reason: 'solved' } });
    const id = await writeChange({
      gitDir: repo().gitDir,
      keyPair: peer.keyPair,
      alias: peer.alias,
      time: built.context.clock.tick(),
      typeName: 'xyz.forge.issue',
      actions,
      message: 'Create issue',
      tips: [],
      resource: repo().identityHead,
    });
    updates.push({ name: `refs/namespaces/${peer.keyPair.nid}/refs/cobs/xyz.forge.issue/${id}`, oid: id });
  }
  await updateRefs(repo().gitDir, updates);
  for (const peer of peers) await writeSignedRefs({ gitDir: repo().gitDir, keyPair: peer.keyPair, time: built.context.clock.tick() });
  await repackRepository(repo().gitDir);
}

beforeAll(async () => {
  dir = await makeTempDir();
  built = await buildNodeHome({
    home: `${dir}/home`,
    seed: 'a'.repeat(64),
    alias: 'alice',
    peers: [{ alias: 'bob' }, { alias: 'carol' }],
    repos: [{ name: 'big' }],
  });
  await writeManyIssues();
  server = await startTestServer({ home: built.home });
}, 300_000);

afterAll(async () => {
  await server?.close();
  await removeTempDir(dir);
});

async function timedList(query: string): Promise<{ ms: number; ids: string[] }> {
  const started = performance.now();
  const response = await getJson(`${server.baseUrl}/api/v1/repos/${repo().rid}/issues${query}`);
  expect(response.status).toBe(200);
  return { ms: performance.now() - started, ids: (response.body as Issue[]).map((issue) => issue.id) };
}

describe(`a repository with ${ISSUES} issues`, () => {
  it('lists quickly after the first request and shows a new change on the next one', async () => {
    const first = await timedList('?status=all&perPage=50');
    const second = await timedList('?status=all&perPage=50');
    const closed = await timedList('?status=closed&perPage=1000');
    console.log(`issues: first listing ${first.ms.toFixed(0)} ms, second ${second.ms.toFixed(0)} ms, other filter ${closed.ms.toFixed(0)} ms`);
    expect(second.ids).toEqual(first.ids);
    expect(closed.ids).toHaveLength(Math.ceil(ISSUES / 7));
    const newest = first.ids[0] as Oid;
    await commentIssue(
      { gitDir: repo().gitDir, keyPair: peerByAlias(built.context, 'bob').keyPair, alias: 'bob', time: built.context.clock.tick(), flavour: 'forge' },
      { issue: newest, body: 'A new comment' },
    );
    const third = await timedList('?status=all&perPage=50');
    console.log(`issues: listing after one new change ${third.ms.toFixed(0)} ms`);
    const issue = (await getJson(`${server.baseUrl}/api/v1/repos/${repo().rid}/issues/${newest}`)).body as Issue;
    expect(issue.discussion.map((comment) => comment.body)).toEqual([`Issue body ${ISSUES - 1}`, 'A new comment']);
  }, 120_000);

  it('re-evaluates only the objects whose tips moved', async () => {
    const store = new CobStore('forge');
    const git = openGitRepository(repo().gitDir, { runtime });
    try {
      const handle = { rid: repo().rid, git, remote: async () => null };
      const before = await (await store.snapshot(handle)).issues();
      const again = await (await store.snapshot(handle)).issues();
      // The very same views: nothing was evaluated again.
      expect(again).toHaveLength(before.length);
      expect(again.every((issue, index) => issue === before[index])).toBe(true);
      const target = before[before.length - 1] as { id: Oid };
      await commentIssue(
        { gitDir: repo().gitDir, keyPair: peerByAlias(built.context, 'carol').keyPair, alias: 'carol', time: built.context.clock.tick(), flavour: 'forge' },
        { issue: target.id, body: 'Another comment' },
      );
      const after = await (await store.snapshot(handle)).issues();
      const changed = after.filter((issue, index) => issue !== before[index]);
      expect(changed.map((issue) => issue.id)).toEqual([target.id]);
    } finally {
      await git.close();
    }
  }, 120_000);

  it('works a listing out whole when what it kept does not hold the entries that changed', async () => {
    const store = new CobStore('forge');
    const git = openGitRepository(repo().gitDir, { runtime });
    try {
      const handle = { rid: repo().rid, git, remote: async () => null };
      const before = await (await store.snapshot(handle)).issues('all');
      await (await store.snapshot(handle)).issues('open');
      // A fault in the kept listing's bookkeeping: its sorted and filtered lists hold copies,
      // so the entries a change replaces are not found in them.
      const memo = store.listings.get('xyz.forge.issue');
      if (memo === undefined) throw new Error('no kept issue listing');
      const derived = new Map([...memo.derived].map(([key, value]) => [key, Array.isArray(value) ? value.map((entry: object) => ({ ...entry })) : value]));
      store.listings.set('xyz.forge.issue', { ...memo, derived });
      const target = before[0] as { id: Oid };
      await commentIssue(
        { gitDir: repo().gitDir, keyPair: peerByAlias(built.context, 'bob').keyPair, alias: 'bob', time: built.context.clock.tick(), flavour: 'forge' },
        { issue: target.id, body: 'A comment after the fault' },
      );
      const after = await (await store.snapshot(handle)).issues('all');
      const fresh = await (await new CobStore('forge').snapshot(handle)).issues('all');
      expect(after).toEqual(fresh);
      expect(after.find((issue) => issue.id === target.id)?.discussion.at(-1)?.body).toBe('A comment after the fault');
      expect(await (await store.snapshot(handle)).issues('open')).toEqual(fresh.filter((issue) => issue.state.status === 'open'));
    } finally {
      await git.close();
    }
  }, 120_000);

  it('fills a first page from the newest objects only, and a page past 1,000 objects from the whole listing', async () => {
    let evaluations = 0;
    const store = new CobStore('forge', { onEvaluated: () => void (evaluations += 1) });
    const reference = new CobStore('forge');
    const git = openGitRepository(repo().gitDir, { runtime });
    try {
      const handle = { rid: repo().rid, git, remote: async () => null };
      const whole = await (await reference.snapshot(handle)).issues('all');
      const open = whole.filter((issue) => issue.state.status === 'open');
      const closed = whole.filter((issue) => issue.state.status === 'closed');
      const snapshot = await store.snapshot(handle);
      expect(await snapshot.issuePage('open', { start: 0, count: 10 })).toEqual(open.slice(0, 10));
      // One batch: the 16 newest (two of them closed).
      expect(evaluations).toBe(16);
      // The 60 newest, the first 16 already evaluated.
      expect(await snapshot.issuePage('all', { start: 40, count: 20 })).toEqual(whole.slice(40, 60));
      expect(evaluations).toBe(60);
      // A seventh of the issues are closed: the 281st to 290th closed lie past 1,000 objects.
      expect(await snapshot.issuePage('closed', { start: 280, count: 10 })).toEqual(closed.slice(280, 290));
      expect(evaluations).toBe(ISSUES);
      expect(store.listings.get('xyz.forge.issue')?.entries).toHaveLength(ISSUES);
      // The whole listing is kept now: later pages evaluate nothing.
      expect(await snapshot.issuePage('open', { start: 1000, count: 5 })).toEqual(open.slice(1000, 1005));
      expect(evaluations).toBe(ISSUES);
    } finally {
      await git.close();
    }
  }, 120_000);
});
