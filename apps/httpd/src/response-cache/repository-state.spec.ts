import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/** The clock of the settle rule, moved by the tests instead of waiting. */
let now: number;
beforeEach(() => (now = Date.now()));

/** A fresh probe: states are remembered per probe, within one turn of the event loop. */
const probe = (): RepositoryStateProbe => new RepositoryStateProbe({ now: () => now });
/** The next turn of the event loop, where a probe reads the file system again. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('RepositoryStateProbe', () => {
  it('has no identity state without refs/rad/id or packed-refs', () => {
    expect(probe().identityState(dir)).toBeNull();
    expect(probe().identityState(join(dir, 'missing'))).toBeNull();
  });

  it('changes the identity stamp when refs/rad/id moves, and trusts it only once settled', async () => {
    await writeRef('refs/rad/id', 'a'.repeat(40));
    const fresh = probe().identityState(dir);
    expect(fresh?.settled).toBe(false);
    now = Date.now() + SETTLE_MS + 1;
    const settled = probe().identityState(dir);
    expect(settled).toEqual({ stamp: fresh?.stamp, settled: true });
    await writeRef('refs/rad/id', 'b'.repeat(40));
    expect(probe().identityState(dir)?.stamp).not.toBe(settled?.stamp);
  });

  it('changes the branches stamp for a ref in a new nested folder and for packed refs', async () => {
    const shared = probe();
    const stamps = [shared.branchesState(dir).stamp];
    await mkdir(join(dir, 'refs/heads/feature'));
    await writeRef('refs/heads/feature/x', 'c'.repeat(40));
    await nextTurn();
    stamps.push(shared.branchesState(dir).stamp);
    await writeRef('refs/heads/feature/x', 'd'.repeat(40));
    await nextTurn();
    stamps.push(shared.branchesState(dir).stamp);
    await writeFile(join(dir, 'packed-refs'), '# pack-refs\n');
    await nextTurn();
    stamps.push(shared.branchesState(dir).stamp);
    expect(new Set(stamps).size).toBe(4);
  });

  it('changes the issues-and-patches stamp for a namespace ref, the identity and the databases', async () => {
    await writeRef('refs/rad/id', 'a'.repeat(40));
    let databases = 'n1';
    const shared = new RepositoryStateProbe({ now: () => now, databasesStamp: () => databases });
    const stamps = [shared.cobsState(dir).stamp];
    await mkdir(join(dir, 'refs/namespaces/z6Mk/refs/cobs/xyz.forge.issue'), { recursive: true });
    await writeRef('refs/namespaces/z6Mk/refs/cobs/xyz.forge.issue/1', 'c'.repeat(40));
    await nextTurn();
    stamps.push(shared.cobsState(dir).stamp);
    await writeRef('refs/namespaces/z6Mk/refs/cobs/xyz.forge.issue/1', 'd'.repeat(40));
    await nextTurn();
    stamps.push(shared.cobsState(dir).stamp);
    await writeRef('refs/rad/id', 'b'.repeat(40));
    await nextTurn();
    stamps.push(shared.cobsState(dir).stamp);
    databases = 'n2';
    // Within the turn the stamp read first stands; the next turn reads the databases again.
    expect(shared.cobsState(dir).stamp).toBe(stamps.at(-1));
    await nextTurn();
    stamps.push(shared.cobsState(dir).stamp);
    expect(new Set(stamps).size).toBe(5);
    now = Date.now() + SETTLE_MS + 1;
    await nextTurn();
    expect(shared.cobsState(dir)).toEqual({ stamp: stamps.at(-1), settled: true });
  });

  it('does not trust the issues-and-patches stamp while a database is locked or the repository is gone', async () => {
    await writeRef('refs/rad/id', 'a'.repeat(40));
    now = Date.now() + SETTLE_MS + 1;
    const locked = new RepositoryStateProbe({
      now: () => now,
      databasesStamp: () => {
        throw new Error('database is locked');
      },
    });
    expect(locked.cobsState(dir).settled).toBe(false);
    expect(new RepositoryStateProbe({ now: () => now }).cobsState(join(dir, 'missing'))).toEqual({ stamp: '-', settled: false });
  });
});
