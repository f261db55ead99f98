import { isOid, type Oid } from '@forge-httpd/storage';
import { readKeptJson, writeKeptJson } from '../platform/kept-file.js';

/** One repository's last counted history, as kept in the cache directory. */
export interface KeptHistory {
  /** The repository's RID. */
  readonly repository: string;
  readonly head: Oid;
  readonly commits: number;
  /** Distinct `name\0email` pairs of the history's authors. */
  readonly authors: readonly string[];
}

/** Where, in the cache directory, counted histories are kept across restarts. */
export const HISTORY_STATS_FILE = 'history-stats.json';

/**
 * Reads the kept histories; an absent, unreadable or malformed file (ours, but a damaged one
 * is no reason to stop) or entry reads as nothing. A history is a function of its head commit,
 * so an entry can never be stale: at worst its repository no longer has that commit, and
 * stats/tree then answers 404 before asking for it.
 */
export function readKeptHistories(file: string): KeptHistory[] {
  const parsed = readKeptJson(file);
  return Array.isArray(parsed) ? parsed.filter(isKeptHistory) : [];
}

/** Writes the histories whole (a temporary file renamed over the last one), creating its folder. */
export function writeKeptHistories(file: string, histories: readonly KeptHistory[]): void {
  writeKeptJson(file, histories);
}

function isKeptHistory(value: unknown): value is KeptHistory {
  if (typeof value !== 'object' || value === null) return false;
  const { repository, head, commits, authors } = value as Record<string, unknown>;
  return (
    typeof repository === 'string' &&
    typeof head === 'string' &&
    isOid(head) &&
    Number.isSafeInteger(commits) &&
    (commits as number) > 0 &&
    Array.isArray(authors) &&
    authors.every((author) => typeof author === 'string')
  );
}
