/**
 * Small JSON files the server keeps in its cache directory across restarts (counted histories,
 * visited repositories). Each is a hint that saves work after a restart, never a source of
 * truth: a file that is absent, unreadable or damaged reads as nothing, and one that cannot be
 * written is left as it was.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The parsed contents of `file`; undefined when it is absent, unreadable or not JSON. */
export function readKeptJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Writes `value` whole through a temporary file of this process renamed over the last version
 * (a reader never sees half a file; with `--workers N` the last writer wins), creating the folder.
 * @throws when the cache directory cannot be written
 */
export function writeKeptJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(value));
  renameSync(temporary, file);
}
