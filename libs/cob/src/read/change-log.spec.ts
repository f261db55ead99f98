import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { TooLargeError } from '@forge-httpd/identity';
import { type GitRepository, type Oid, openGitRepository, StorageRuntime } from '@forge-httpd/storage';
import { initBareRepository, updateRefs } from '@forge-httpd/storage/write';
import { alice, bob } from '../testing/fixtures.testing.js';
import { writeChange } from '../write/write-change.js';
import { isCobTypeName, loadChangeLog, objectTipsOfType } from './change-log.js';

const runtime = new StorageRuntime();
const TYPE = 'com.example.thing';
const LIMITS = { maxChanges: 100, maxActionBytes: 1 << 20 };
let dir: string;
let git: GitRepository;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'forge-'));
  await initBareRepository(dir);
  git = openGitRepository(dir, { runtime });
});
afterAll(async () => {
  await git.close();
  await rm(dir, { recursive: true, force: true });
});

function write(fields: { tips?: Oid[]; actions?: unknown[]; badSignature?: boolean; time?: number; signer?: typeof alice }): Promise<Oid> {
  const signer = fields.signer ?? alice;
  return writeChange({
    gitDir: dir,
    keyPair: signer,
    alias: 'a',
    time: fields.time ?? 1_700_000_000,
    typeName: TYPE,
    actions: fields.actions ?? [{ type: 'x' }],
    message: 'change',
    tips: fields.tips ?? [],
    resource: null,
    badSignature: fields.badSignature,
  });
}

describe('loadChangeLog', () => {
  it('orders parents first and ready changes by id, keeps raw actions as bytes, leaves out bad signatures', async () => {
    const root = await write({ actions: [{ type: 'open' }, Buffer.from([0xc3, 0x28])] });
    const left = await write({ tips: [root], time: 1_700_000_001 });
    const right = await write({ tips: [root], time: 1_700_000_002, signer: bob });
    const forged = await write({ tips: [left], badSignature: true, time: 1_700_000_003 });
    const merge = await write({ tips: [forged, right], time: 1_700_000_004 });
    await updateRefs(dir, [
      { name: `refs/namespaces/${alice.nid}/refs/cobs/${TYPE}/${root}`, oid: merge },
      { name: `refs/namespaces/${bob.nid}/refs/cobs/${TYPE}/${root}`, oid: right },
    ]);
    const tips = (await objectTipsOfType(git, TYPE)).get(root) ?? [];
    const log = await loadChangeLog(git, { typeName: TYPE, tips, limits: LIMITS });
    expect(log.map((change) => change.id)).toEqual([root, ...[left, right].sort(), merge]);
    expect(log[0]?.actions).toEqual([{ json: { type: 'open' } }, { bytes: Buffer.from([0xc3, 0x28]) }]);
    expect(log.find((change) => change.id === right)?.author).toBe(bob.nid);
    expect(log.every((change) => change.signatureValid)).toBe(true);
    // Another type under the same id is not this object.
    expect(await loadChangeLog(git, { typeName: 'com.example.other', tips, limits: LIMITS })).toEqual([]);
  });

  it('fails with TooLargeError past its bounds', async () => {
    const root = await write({ time: 1_700_000_100 });
    const next = await write({ tips: [root], time: 1_700_000_101 });
    await expect(loadChangeLog(git, { typeName: TYPE, tips: [next], limits: { maxChanges: 1, maxActionBytes: 1 << 20 } })).rejects.toThrow(TooLargeError);
    await expect(loadChangeLog(git, { typeName: TYPE, tips: [next], limits: { maxChanges: 10, maxActionBytes: 10 } })).rejects.toThrow(TooLargeError);
    expect(await loadChangeLog(git, { typeName: TYPE, tips: [next], limits: LIMITS })).toHaveLength(2);
  });
});

describe('isCobTypeName', () => {
  it('takes reverse domain names only', () => {
    for (const name of ['xyz.radicle.issue', 'com.example.ci-status', 'a.b', 'X1.y2']) expect(isCobTypeName(name)).toBe(true);
    for (const name of ['', 'issue', '.a.b', 'a..b', 'a.b.', '-a.b', 'a-.b', 'a/b.c', 'a.b/../c', 'a b.c', `${'a'.repeat(64)}.b`, `${'a.'.repeat(128)}b`]) {
      expect(isCobTypeName(name)).toBe(false);
    }
  });
});
