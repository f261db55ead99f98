/**
 * Clients that ask for big pages and stop reading: each asks for a distinct diff page of the
 * big repository (a 200-commit range: its diff and the blobs of its `files` map, megabytes
 * of JSON), reads the first bytes and then nothing more, while wrk measures a trivial route
 * at c=1. Unbounded, the server built every such page at once and kept every answer until its
 * client read it, so a few hundred such clients took it to gigabytes. What it holds for them
 * must not grow with their number; answers are 200 or 503.
 */
import { connect, type Socket } from 'node:net';
import type { ForgeServer } from './forge-server.js';
import { runCommand } from './processes.js';
import { type LoadResult, runWrk } from './wrk.js';

/** What {@link measureStalledReaders} measured. */
export interface StalledReadersResult {
  readonly clients: number;
  /** Clients by the status their answer began with (`none`: no answer before the end). */
  readonly statuses: Readonly<Record<string, number>>;
  readonly trivial: LoadResult;
}

/** Clients, each on its own page. */
const STALLED_READERS = 200;
/** Commits each page's range spans: hundreds of changed files on the generated history. */
const RANGE_COMMITS = 200;

/**
 * Opens {@link STALLED_READERS} stalled readers on distinct diff pages of `rid`, then measures
 * `trivialPath` for `seconds` while they hold their connections.
 * @param input - the big repository (its history gives the pages), the trivial path, seconds, a scratch directory
 */
export async function measureStalledReaders(
  server: ForgeServer,
  input: { rid: string; bigGitDir: string; trivialPath: string; seconds: number; scratchDir: string },
): Promise<StalledReadersResult> {
  const { stdout } = await runCommand('git', ['--git-dir', input.bigGitDir, 'rev-list', `--max-count=${STALLED_READERS * 10 + RANGE_COMMITS}`, 'HEAD']);
  const oids = stdout
    .toString('latin1')
    .split('\n')
    .filter((line) => /^[0-9a-f]{40}$/.test(line));
  const pages = Array.from({ length: STALLED_READERS }, (_, i) => {
    const oid = oids[i * 10] ?? oids[0];
    const base = oids[i * 10 + RANGE_COMMITS] ?? oids[oids.length - 1];
    return `/api/v1/repos/${input.rid}/diff/${base}/${oid}`;
  });
  const statuses: Record<string, number> = {};
  const sockets = pages.map((page) => stalledReader(server.baseUrl, page, (status) => (statuses[status] = (statuses[status] ?? 0) + 1)));
  try {
    await delay(1000);
    const trivial = await runWrk({ baseUrl: server.baseUrl, paths: [input.trivialPath], concurrency: 1, seconds: input.seconds, scratchDir: input.scratchDir });
    const answered = Object.values(statuses).reduce((sum, count) => sum + count, 0);
    return { clients: STALLED_READERS, statuses: { ...statuses, ...(answered < STALLED_READERS ? { none: STALLED_READERS - answered } : {}) }, trivial };
  } finally {
    for (const socket of sockets) socket.destroy();
  }
}

/** Asks for `page`, reports the status of the answer's first bytes and stops reading. */
function stalledReader(baseUrl: string, page: string, onStatus: (status: string) => void): Socket {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect(Number(port), hostname);
  socket.on('error', () => undefined);
  socket.once('data', (chunk: Buffer) => {
    onStatus(chunk.toString('latin1').split(' ')[1] ?? '?');
    socket.pause();
  });
  socket.write(`GET ${page} HTTP/1.1\r\nHost: bench\r\n\r\n`);
  return socket;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
