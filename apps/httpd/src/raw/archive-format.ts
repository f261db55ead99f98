import type { ArchiveFormat } from '@forge-httpd/storage';

/** An archive format with its URL suffix and media type (radicle-httpd `raw.rs`). */
export interface ArchiveKind {
  readonly format: ArchiveFormat;
  readonly extension: string;
  readonly mediaType: string;
}

/** Checked in this order, as raw.rs does (`.tar` before `.tar.gz`: a name ends with at most one). */
const KINDS: readonly ArchiveKind[] = [
  { format: 'tar', extension: '.tar', mediaType: 'application/x-tar' },
  { format: 'tar.gz', extension: '.tar.gz', mediaType: 'application/gzip' },
  { format: 'zip', extension: '.zip', mediaType: 'application/zip' },
];

/** tar.gz, the default of the refname route (raw.rs: compressed downloads of large repositories). */
export const DEFAULT_ARCHIVE_KIND = KINDS[1] as ArchiveKind;

/**
 * Splits a known archive suffix off `text`.
 * @returns the text without the suffix and the kind, or the text unchanged and null
 */
export function detectArchiveKind(text: string): { name: string; kind: ArchiveKind | null } {
  for (const kind of KINDS) {
    if (text.endsWith(kind.extension)) return { name: text.slice(0, -kind.extension.length), kind };
  }
  return { name: text, kind: null };
}
