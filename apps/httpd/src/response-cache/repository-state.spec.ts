import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { RepositoryStateProbe, SETTLE_MS } from './repository-state.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'forge-'));
  await mkdir(join(dir, 'refs/rad'), { recursive: true });
  await mkdir(join(dir, 'refs/heads'), { recursive: true });
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** Writes a ref the way git does: a lock file renamed over the ref. */
async function writeRef(name: string, oid: string): Promise<void> {
  await writeFile(join(dir, `${name}.lock`), `${oid}\n`);
  await rename(join(dir, `${name}.lock`), join(dir, name));
}

/** A fresh probe on a later turn of the event loop (states are shared within one turn). */
const probe = async (): Promise<RepositoryStateProbe> => {
  await sleep(1);
  return new RepositoryStateProbe();
};

describe('RepositoryStateProbe', () => {
  it('has no identity state without refs/rad/id or packed-refs', async () => {
    expect((await probe()).identityState(dir)).toBeNull();
    expect((await probe()).identityState(join(dir, 'missing'))).toBeNull();
  });

  it('changes the identity stamp when refs/rad/id moves, and trusts it only once settled', async () => {
    await writeRef('refs/rad/id', 'a'.repeat(40));
    const fresh = (await probe()).identityState(dir);
    expect(fresh?.settled).toBe(false);
    await sleep(SETTLE_MS + 20);
    const settled = (await probe()).identityState(dir);
    expect(settled).toEqual({ stamp: fresh?.stamp, settled: true });
    await writeRef('refs/rad/id', 'b'.repeat(40));
    expect((await probe()).identityState(dir)?.stamp).not.toBe(settled?.stamp);
  });

  it('changes the branches stamp for a ref in a new nested folder and for packed refs', async () => {
    const shared = new RepositoryStateProbe();
    const stamps = [shared.branchesState(dir).stamp];
    await mkdir(join(dir, 'refs/heads/feature'));
    await writeRef('refs/heads/feature/x', 'c'.repeat(40));
    await sleep(1);
    stamps.push(shared.branchesState(dir).stamp);
    await writeRef('refs/heads/feature/x', 'd'.repeat(40));
    await sleep(1);
    stamps.push(shared.branchesState(dir).stamp);
    await writeFile(join(dir, 'packed-refs'), '# pack-refs\n');
    await sleep(1);
    stamps.push(shared.branchesState(dir).stamp);
    expect(new Set(stamps).size).toBe(4);
  });
});
