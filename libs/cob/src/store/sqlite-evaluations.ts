/**
 * {@link PersistedEvaluations} in one SQLite file of a directory the caller owns (never the
 * node's storage). Chosen over JSON lines by measurement (docs/development.md, design notes):
 * reads of a whole scope cost about the same (JSON parsing dominates both), while SQLite
 * updates single objects in place, shares the file between processes and never leaves a
 * half-written record behind.
 *
 * Entries are keyed by repository, flavour, type and object id and carry the tips they were
 * evaluated at (the store compares them with the current ones); the file name carries
 * {@link EVALUATION_FORMAT_VERSION}, so entries written by another version of the evaluation
 * code are never read (files of older versions are removed when the cache opens). A row keeps
 * what listings need (consulted refs, listing facts) apart from the view, so a listing reads
 * its objects without parsing every view; each part has a checksum of its own: a damaged row
 * is skipped, a damaged or unreadable file turns the cache off (answers are then evaluated
 * from git).
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import Database from 'better-sqlite3';
import { isFlavour, type Oid } from '@forge-httpd/storage';
import { type EvaluationScope, type ListingFacts, NO_CONSULTED_REFS, type PersistedEvaluation, type PersistedEvaluations } from './persisted-evaluations.js';

/**
 * Version of what an evaluation produces (the views and their inputs). Bump it with any change
 * to folds, views or change loading that alters a value: older files are then left unread.
 */
export const EVALUATION_FORMAT_VERSION = 2;

/** Options of {@link openSqliteEvaluations}. */
export interface SqliteEvaluationsOptions {
  /** Directory of the file; created (mode 0700) when missing. */
  readonly dir: string;
  /** Told once when the cache turns itself off (or stops writing), with the reason. */
  readonly onError?: (error: Error) => void;
}

/** A row's listing part: what {@link SqliteEvaluations.readAll} reads. */
interface HeadRow {
  readonly id: string;
  readonly tips: string;
  /** JSON of the consulted refs and the listing facts. */
  readonly head: string;
  readonly head_checksum: number;
}

/** A whole row: what {@link SqliteEvaluations.read} reads. */
interface Row extends HeadRow {
  /** JSON of the view. */
  readonly value: string;
  readonly value_checksum: number;
}

// A rowid table: rows of about a kilobyte in a WITHOUT ROWID table each take an overflow page,
// which makes the file several times larger and a whole scope several times slower to read.
const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS evaluations (
    rid TEXT NOT NULL, flavour TEXT NOT NULL, type TEXT NOT NULL, id TEXT NOT NULL,
    tips TEXT NOT NULL, head TEXT NOT NULL, head_checksum INTEGER NOT NULL,
    value TEXT NOT NULL, value_checksum INTEGER NOT NULL
  )`,
  'CREATE UNIQUE INDEX IF NOT EXISTS evaluations_key ON evaluations (rid, flavour, type, id)',
];

/** The file {@link openSqliteEvaluations} uses in `dir`. */
export function sqliteEvaluationsFile(dir: string): string {
  return path.join(dir, `cob-evaluations-v${EVALUATION_FORMAT_VERSION}.sqlite`);
}

/**
 * Opens (creating when needed) the evaluation cache in `options.dir`. Never throws: when the
 * directory cannot be written or the file is unusable, the returned cache reads as empty.
 * A file SQLite rejects as damaged is replaced by a new one.
 * @returns the cache and a `close` for shutdown
 */
export function openSqliteEvaluations(options: SqliteEvaluationsOptions): PersistedEvaluations & { close(): void } {
  const file = sqliteEvaluationsFile(options.dir);
  removeOlderVersions(options.dir);
  let db: Database.Database | null = null;
  try {
    db = openDatabase(options.dir, file);
  } catch (error) {
    if (isDamaged(error)) {
      // Our own file, damaged: start over rather than run without a cache from now on.
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
      db = tryOpen(options, file);
    } else options.onError?.(asError(error));
  }
  return db === null ? NO_EVALUATIONS : new SqliteEvaluations(db, options.onError);
}

function tryOpen(options: SqliteEvaluationsOptions, file: string): Database.Database | null {
  try {
    return openDatabase(options.dir, file);
  } catch (error) {
    options.onError?.(asError(error));
    return null;
  }
}

function openDatabase(dir: string, file: string): Database.Database {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const db = new Database(file);
  try {
    // Several server processes may share the file; a write that waits long is skipped instead.
    db.pragma('busy_timeout = 100');
    db.pragma('journal_mode = WAL');
    // A lost last transaction after a power cut only costs re-evaluation.
    db.pragma('synchronous = NORMAL');
    for (const statement of SCHEMA) db.exec(statement);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Files of older format versions in `dir` (never read again) are removed; nothing else is touched. */
function removeOlderVersions(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const version = /^cob-evaluations-v(\d{1,6})\.sqlite(?:-wal|-shm)?$/.exec(name)?.[1];
    if (version !== undefined && Number(version) < EVALUATION_FORMAT_VERSION) rmSync(path.join(dir, name), { force: true });
  }
}

class SqliteEvaluations implements PersistedEvaluations {
  private readonly selectAll: Database.Statement<[string, string, string], HeadRow>;
  private readonly selectOne: Database.Statement<[string, string, string, string], Row>;
  private readonly upsert: Database.Statement<[string, string, string, string, string, string, number, string, number]>;
  private readonly countScopes: Database.Statement<[], { rid: string; flavour: string; type: string; objects: number }>;
  private readable = true;
  private writable = true;

  constructor(
    private readonly db: Database.Database,
    private readonly onError: ((error: Error) => void) | undefined,
  ) {
    const scope = 'FROM evaluations WHERE rid = ? AND flavour = ? AND type = ?';
    this.selectAll = db.prepare(`SELECT id, tips, head, head_checksum ${scope}`);
    this.selectOne = db.prepare(`SELECT id, tips, head, head_checksum, value, value_checksum ${scope} AND id = ?`);
    this.countScopes = db.prepare('SELECT rid, flavour, type, count(*) AS objects FROM evaluations GROUP BY rid, flavour, type');
    this.upsert = db.prepare(
      'INSERT OR REPLACE INTO evaluations (rid, flavour, type, id, tips, head, head_checksum, value, value_checksum) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
  }

  readAll(scope: EvaluationScope): ReadonlyMap<Oid, PersistedEvaluation> {
    const entries = new Map<Oid, PersistedEvaluation>();
    const rows = this.query(() => this.selectAll.all(scope.rid, scope.flavour, scope.typeName)) ?? [];
    for (const row of rows) {
      const head = decodeHead(row);
      // The view is read per object when asked; an invalid object's is known already.
      if (head !== null) entries.set(head.id, { ...head, value: head.listed === null ? null : undefined });
    }
    return entries;
  }

  read(scope: EvaluationScope, id: Oid): PersistedEvaluation | null {
    const row = this.query(() => this.selectOne.get(scope.rid, scope.flavour, scope.typeName, id));
    if (row === undefined || row === null) return null;
    const head = decodeHead(row);
    if (head === null || crc32(row.value) !== row.value_checksum) return null;
    try {
      const value = JSON.parse(row.value) as unknown;
      return (value === null) === (head.listed === null) ? { ...head, value } : null;
    } catch {
      return null;
    }
  }

  write(scope: EvaluationScope, entries: readonly PersistedEvaluation[]): boolean {
    if (!this.writable) return false;
    if (entries.length === 0) return true;
    try {
      this.db.transaction(() => {
        for (const entry of entries) {
          const head = JSON.stringify({ deps: [...entry.deps], listed: entry.listed });
          const value = JSON.stringify(entry.value);
          if (value === undefined) throw new TypeError(`evaluation of ${entry.id} written without its view`);
          this.upsert.run(
            scope.rid,
            scope.flavour,
            scope.typeName,
            entry.id,
            entry.tipsKey,
            head,
            headChecksum(entry.id, entry.tipsKey, head),
            value,
            crc32(value),
          );
        }
      })();
      return true;
    } catch (error) {
      // Busy (another process writing) is transient: skip this batch, the objects are
      // written again the next time they are evaluated. Anything else ends writing.
      if ((error as { code?: unknown }).code === 'SQLITE_BUSY') return false;
      this.writable = false;
      this.onError?.(asError(error));
      return false;
    }
  }

  listScopes(): ReadonlyArray<{ readonly scope: EvaluationScope; readonly objects: number }> {
    const rows = this.query(() => this.countScopes.all()) ?? [];
    return rows.flatMap(({ rid, flavour, type, objects }) => (isFlavour(flavour) ? [{ scope: { rid, flavour, typeName: type }, objects }] : []));
  }

  close(): void {
    // Evaluations still under way at shutdown may finish later: they find a closed cache.
    this.readable = false;
    this.writable = false;
    this.db.close();
  }

  private query<T>(run: () => T): T | undefined {
    if (!this.readable) return undefined;
    try {
      return run();
    } catch (error) {
      // Another process holding the file a moment: this read misses, the next one may not.
      if ((error as { code?: unknown }).code === 'SQLITE_BUSY') return undefined;
      this.readable = false;
      this.writable = false;
      this.onError?.(asError(error));
      return undefined;
    }
  }
}

const NO_EVALUATIONS: PersistedEvaluations & { close(): void } = {
  readAll: () => new Map(),
  read: () => null,
  write: () => false,
  listScopes: () => [],
  close: () => {},
};

/** The row's listing part, or null when its checksum or JSON does not hold. */
function decodeHead(row: HeadRow): Omit<PersistedEvaluation, 'value'> | null {
  if (headChecksum(row.id, row.tips, row.head) !== row.head_checksum) return null;
  try {
    const { deps, listed } = JSON.parse(row.head) as { deps: unknown; listed: unknown };
    if (!Array.isArray(deps) || !isListingFacts(listed)) return null;
    return { id: row.id as Oid, tipsKey: row.tips, deps: deps.length === 0 ? NO_CONSULTED_REFS : new Map(deps as Array<[string, Oid | null]>), listed };
  } catch {
    return null;
  }
}

function isListingFacts(value: unknown): value is ListingFacts | null {
  if (value === null) return true;
  if (typeof value !== 'object') return false;
  const facts: Partial<ListingFacts> = value;
  return typeof facts.timestamp === 'number' && typeof facts.status === 'string';
}

function headChecksum(id: string, tips: string, head: string): number {
  // Detects damage (a torn or edited row), not malice: the directory is the server's own (0700).
  // CRC-32 is native and an order of magnitude cheaper than SHA-1 over a whole tracker.
  return crc32(head, crc32(tips, crc32(id)));
}

function isDamaged(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT';
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
