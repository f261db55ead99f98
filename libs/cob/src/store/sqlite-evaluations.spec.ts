import { mkdtemp, readdir, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import type { Oid } from '@forge-httpd/storage';
import { oid } from '../testing/fixtures.testing.js';
import type { EvaluationScope, PersistedEvaluation } from './persisted-evaluations.js';
import { openSqliteEvaluations, sqliteEvaluationsFile } from './sqlite-evaluations.js';

const scope: EvaluationScope = { rid: 'rad:z1', typeName: 'xyz.forge.issue', flavour: 'forge' };
const entry = (n: number, value: unknown = { id: oid(n), title: `issue ${n}`, labels: ['bug'] }): PersistedEvaluation => ({
  id: oid(n),
  tipsKey: `${oid(n + 100)},${oid(n + 200)}`,
  deps: new Map<string, Oid | null>([
    ['refs/namespaces/z6/refs/rad/sigrefs', oid(n + 300)],
    ['refs/namespaces/z7/refs/heads/main', null],
  ]),
  listed: value === null ? null : { timestamp: 1_700_000_000 + n, status: n % 2 === 0 ? 'closed' : 'open' },
  value,
});
/** What `readAll` gives back: the entry without its view (an invalid object's stays null). */
const listedOnly = (written: PersistedEvaluation): PersistedEvaluation => ({ ...written, value: written.value === null ? null : undefined });

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'forge-cob-cache-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('openSqliteEvaluations', () => {
  it('gives back what was written, by scope, across reopening', () => {
    const first = openSqliteEvaluations({ dir });
    expect(first.write(scope, [entry(1), entry(2, null)])).toBe(true);
    expect(first.write({ ...scope, flavour: 'radicle' }, [entry(3)])).toBe(true);
    first.close();
    const again = openSqliteEvaluations({ dir });
    const all = again.readAll(scope);
    expect(all).toEqual(
      new Map([
        [oid(1), listedOnly(entry(1))],
        [oid(2), entry(2, null)],
      ]),
    );
    // A listing reads no view: each is read when a page shows it.
    expect(all.get(oid(1))).toHaveProperty('value', undefined);
    expect(again.read(scope, oid(1))).toEqual(entry(1));
    expect(again.read(scope, oid(2))).toEqual(entry(2, null));
    expect(again.read(scope, oid(3))).toBeNull();
    expect(again.read({ ...scope, typeName: 'xyz.forge.patch' }, oid(1))).toBeNull();
    expect(again.listScopes()).toEqual([
      { scope, objects: 2 },
      { scope: { ...scope, flavour: 'radicle' }, objects: 1 },
    ]);
    again.close();
  });

  it('replaces an entry written again', () => {
    const cache = openSqliteEvaluations({ dir });
    cache.write(scope, [entry(1)]);
    cache.write(scope, [entry(1, { id: oid(1), title: 'edited' })]);
    expect(cache.read(scope, oid(1))?.value).toEqual({ id: oid(1), title: 'edited' });
    cache.close();
  });

  it('skips a row whose listing part was altered', () => {
    const cache = openSqliteEvaluations({ dir });
    cache.write(scope, [entry(1), entry(2)]);
    cache.close();
    const db = new Database(sqliteEvaluationsFile(dir));
    db.prepare('UPDATE evaluations SET head = replace(head, \'"open"\', \'"closed"\') WHERE id = ?').run(oid(1));
    db.close();
    const again = openSqliteEvaluations({ dir });
    expect([...again.readAll(scope).keys()]).toEqual([oid(2)]);
    expect(again.read(scope, oid(1))).toBeNull();
    again.close();
  });

  it('lists a row whose view was altered, but never reads that view', () => {
    const cache = openSqliteEvaluations({ dir });
    cache.write(scope, [entry(1), entry(2)]);
    cache.close();
    const db = new Database(sqliteEvaluationsFile(dir));
    db.prepare("UPDATE evaluations SET value = replace(value, 'issue 1', 'issue 9') WHERE id = ?").run(oid(1));
    db.close();
    const again = openSqliteEvaluations({ dir });
    expect([...again.readAll(scope).keys()].sort()).toEqual([oid(1), oid(2)].sort());
    // The store then evaluates the object again.
    expect(again.read(scope, oid(1))).toBeNull();
    expect(again.read(scope, oid(2))).toEqual(entry(2));
    again.close();
  });

  it('removes the files of older format versions, and nothing else', async () => {
    const older = join(dir, 'cob-evaluations-v1.sqlite');
    for (const name of [older, `${older}-wal`, join(dir, 'cob-evaluations-v9.sqlite'), join(dir, 'notes.txt')]) await writeFile(name, 'x');
    openSqliteEvaluations({ dir }).close();
    const names = await readdir(dir);
    expect(names).not.toContain('cob-evaluations-v1.sqlite');
    expect(names).not.toContain('cob-evaluations-v1.sqlite-wal');
    expect(names).toEqual(expect.arrayContaining(['cob-evaluations-v9.sqlite', 'notes.txt', basename(sqliteEvaluationsFile(dir))]));
  });

  it.each([
    ['garbage', (file: string) => writeFile(file, 'not a database, not at all'.repeat(200))],
    ['truncated', (file: string) => truncate(file, 1000)],
  ])('starts over from a %s file', async (_name, damage) => {
    const cache = openSqliteEvaluations({ dir });
    cache.write(
      scope,
      Array.from({ length: 50 }, (_, i) => entry(i + 1)),
    );
    cache.close();
    await damage(sqliteEvaluationsFile(dir));
    const errors: Error[] = [];
    const again = openSqliteEvaluations({ dir, onError: (error) => errors.push(error) });
    expect(again.readAll(scope).size).toBeLessThan(50);
    again.write(scope, [entry(1)]);
    expect(again.read(scope, oid(1)) ?? errors.length).toBeTruthy();
    again.close();
  });

  it('reads as empty and writes nothing when the directory cannot be made', async () => {
    // A file where the directory should be stops root as well as anyone else.
    const notADirectory = join(dir, 'file');
    await writeFile(notADirectory, '');
    const errors: Error[] = [];
    const cache = openSqliteEvaluations({ dir: join(notADirectory, 'cache'), onError: (error) => errors.push(error) });
    // Not written: the store keeps its views in memory.
    expect(cache.write(scope, [entry(1)])).toBe(false);
    expect(cache.readAll(scope).size).toBe(0);
    expect(cache.read(scope, oid(1))).toBeNull();
    expect(errors).toHaveLength(1);
    cache.close();
  });

  it('creates its directory readable by the owner only', async () => {
    const cacheDir = join(dir, 'nested', 'cache');
    openSqliteEvaluations({ dir: cacheDir }).close();
    expect((await stat(cacheDir)).mode & 0o777).toBe(0o700);
  });
});
