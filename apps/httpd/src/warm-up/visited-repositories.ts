/**
 * The repositories visitors asked for most, remembered across restarts so the start-up warm-up
 * prepares them again (their git processes, pack indexes, branch masks and compiled code), the
 * way a database reloads the pages it held before it stopped. A visit is a repository page
 * answered 200 (or 304 to a browser that holds it), so only public repositories that existed
 * are counted; the warm-up asks them
 * again through the server itself, and one that became private or went away answers 404 there
 * like everywhere else.
 */
import { BoundedCache } from '@forge-httpd/bounded-cache';
import { parseRid, type Rid } from '@forge-httpd/identity';
import { readKeptJson, writeKeptJson } from '../platform/kept-file.js';
import type { RequestRecord } from '../telemetry/request-record.js';

/** Where, in the cache directory, the most visited repositories are kept across restarts. */
export const VISITED_REPOSITORIES_FILE = 'visited-repositories.json';

/** Repositories kept in the file (more than the warm-up takes, so one that is gone leaves others). */
export const KEPT_VISITED = 8;

/** Distinct RID spellings counted at once (least recently visited forgotten first). */
const COUNTED = 256;

/** How often counts are written while serving (also at shutdown), so a crash loses little. */
const SAVE_EVERY_MS = 5 * 60_000;

/** Route patterns of the API's repository pages (`/api/v1/repos/:rid` and below it). */
const REPOSITORY_ROUTE = '/api/v1/repos/:rid';
const REPOSITORY_PATH = '/api/v1/repos/';

/** One kept repository: visits counted before, halved at every start so old favourites fade. */
interface KeptVisits {
  readonly rid: Rid;
  readonly visits: number;
}

/** Counts visits per repository and keeps the most visited ones in the cache directory. */
export class VisitedRepositories {
  /** Visits of this run, by the RID as the client spelled it (`rad:z…`, `z…`, escaped). */
  private readonly counted = new BoundedCache<string, { visits: number }>({ maxEntries: COUNTED });
  /** Visits kept by earlier runs (already halved). */
  private readonly kept = new Map<Rid, number>();
  private paused = false;
  private changed = false;
  private readonly saveTimer: NodeJS.Timeout | undefined;

  /** @param file - where the most visited repositories are kept (null: only in memory) */
  constructor(private readonly file: string | null) {
    if (file === null) return;
    const parsed = readKeptJson(file);
    for (const entry of Array.isArray(parsed) ? parsed : []) {
      const rid = keptRid(entry);
      if (rid !== null) this.kept.set(rid, (entry as KeptVisits).visits / 2);
    }
    this.saveTimer = setInterval(() => this.flushIfChanged(), SAVE_EVERY_MS).unref();
  }

  /** Counts `record` when it is a repository page answered 200 or 304 (a listener of every request). */
  record(record: RequestRecord): void {
    if (this.paused || (record.status !== 200 && record.status !== 304) || !record.route.startsWith(REPOSITORY_ROUTE)) return;
    const end = ridEnd(record.url);
    const spelled = record.url.slice(REPOSITORY_PATH.length, end);
    const entry = this.counted.get(spelled);
    if (entry === undefined) this.counted.set(spelled, { visits: 1 });
    else entry.visits += 1;
    this.changed = true;
  }

  /** Requests made while `work` runs (the warm-up asking for itself) are not visits. */
  pauseWhile(work: Promise<unknown>): void {
    this.paused = true;
    const resume = (): void => {
      this.paused = false;
    };
    work.then(resume, resume);
  }

  /** Up to `limit` RIDs, most visited first (this run's visits plus the halved kept ones). */
  mostVisited(limit: number = KEPT_VISITED): Rid[] {
    return this.ranked()
      .slice(0, limit)
      .map((entry) => entry.rid);
  }

  /** Writes the most visited repositories now (at shutdown); a failed write leaves the last file. */
  flush(): void {
    clearInterval(this.saveTimer);
    this.write();
  }

  private flushIfChanged(): void {
    if (this.changed) this.write();
  }

  private write(): void {
    if (this.file === null) return;
    this.changed = false;
    try {
      writeKeptJson(this.file, this.ranked().slice(0, KEPT_VISITED));
    } catch {
      // A cache directory that cannot be written: the next start warms only the pinned ones.
    }
  }

  private ranked(): KeptVisits[] {
    const visits = new Map(this.kept);
    for (const [spelled, { visits: count }] of this.counted.list()) {
      const rid = ridOf(spelled);
      if (rid !== null) visits.set(rid, (visits.get(rid) ?? 0) + count);
    }
    // Ties in RID order, so the choice does not depend on the order of visits.
    return [...visits].map(([rid, count]) => ({ rid, visits: count })).sort((a, b) => b.visits - a.visits || (a.rid < b.rid ? -1 : a.rid > b.rid ? 1 : 0));
  }
}

/** Where the RID segment of a repository page's target ends (a `/` or the query). */
function ridEnd(url: string): number {
  for (let i = REPOSITORY_PATH.length; i < url.length; i += 1) {
    const code = url.charCodeAt(i);
    if (code === 0x2f || code === 0x3f) return i;
  }
  return url.length;
}

/** The RID a client's spelling names; null when it names none (the route answered 200, so rarely). */
function ridOf(spelled: string): Rid | null {
  try {
    return parseRid(decodeURIComponent(spelled));
  } catch {
    return null;
  }
}

function keptRid(entry: unknown): Rid | null {
  if (typeof entry !== 'object' || entry === null) return null;
  const { rid, visits } = entry as Record<string, unknown>;
  if (typeof rid !== 'string' || typeof visits !== 'number' || !Number.isFinite(visits) || visits <= 0) return null;
  return ridOf(rid);
}
