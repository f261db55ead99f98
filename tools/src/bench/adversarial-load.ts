/**
 * Adversarial load (issue 11): a flood of distinct URLs, each a cache miss (every commit, tree
 * and diff page of the big repository once, plus malformed and absent ids), together with a few
 * hundred slow clients that trickle a request's headers and never finish, while wrk measures a
 * trivial route at c=1. The server must keep the trivial route fast and its RSS bounded, and
 * answer the flood with real answers or 503 + retry-after rather than collapse.
 */
import { connect, type Socket } from 'node:net';
import type { ForgeServer } from './forge-server.js';
import { runCommand } from './processes.js';
import { type LoadResult, runWrk } from './wrk.js';

/** What {@link measureAdversarial} measured. */
export interface AdversarialResult {
  readonly trivial: LoadResult;
  readonly flood: LoadResult;
  /** Distinct URLs in the flood. */
  readonly distinctUrls: number;
  readonly slowClients: number;
  /** Slow connections the server closed (request timeout), reopened by the clients. */
  readonly slowClosed: number;
}

const SLOW_CLIENTS = 300;
const FLOOD_CONNECTIONS = 32;

/**
 * Runs the flood and the slow clients for `seconds`, measuring `trivialPath` meanwhile.
 * @param input.bigGitDir - the big repository (its history gives the distinct pages)
 */
export async function measureAdversarial(
  server: ForgeServer,
  input: { rid: string; bigGitDir: string; trivialPath: string; seconds: number; scratchDir: string },
): Promise<AdversarialResult> {
  const urls = await distinctUrls(input.rid, input.bigGitDir);
  const slow = startSlowClients(server.baseUrl, SLOW_CLIENTS);
  try {
    const [flood, trivial] = await Promise.all([
      runWrk({ baseUrl: server.baseUrl, paths: urls, concurrency: FLOOD_CONNECTIONS, seconds: input.seconds, scratchDir: input.scratchDir }),
      // Starts once the flood and the slow clients are under way.
      delay(1000).then(() =>
        runWrk({ baseUrl: server.baseUrl, paths: [input.trivialPath], concurrency: 1, seconds: input.seconds - 1, scratchDir: input.scratchDir }),
      ),
    ]);
    return { trivial, flood, distinctUrls: urls.length, slowClients: SLOW_CLIENTS, slowClosed: slow.closed() };
  } finally {
    slow.stop();
  }
}

/** Commit, diff, tree and stats pages of every commit (newest 5,000), and bad ids, shuffled. */
async function distinctUrls(rid: string, gitDir: string): Promise<string[]> {
  const { stdout } = await runCommand('git', ['--git-dir', gitDir, 'rev-list', '--max-count=5000', 'HEAD']);
  const oids = stdout
    .toString('latin1')
    .split('\n')
    .filter((line) => /^[0-9a-f]{40}$/.test(line));
  const repo = `/api/v1/repos/${rid}`;
  const urls = oids.flatMap((oid, i) => {
    const base = oids[i + 1] ?? oid;
    return [`${repo}/commits/${oid}`, `${repo}/tree/${oid}/`, `${repo}/diff/${base}/${oid}`, `${repo}/stats/commits/${oid}`];
  });
  // Absent commits and malformed ids: answered 404/400 without git work.
  for (let i = 0; i < 1000; i += 1) urls.push(`${repo}/commits/${i.toString(16).padStart(40, 'f')}`, `${repo}/tree/zz${i}/`);
  // A fixed shuffle, so no two neighbours in the rotation share a cache entry.
  let seed = 42;
  for (let i = urls.length - 1; i > 0; i -= 1) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const j = seed % (i + 1);
    [urls[i], urls[j]] = [urls[j] as string, urls[i] as string];
  }
  return urls;
}

/** Clients that send a request line and then one header byte per second, forever. */
function startSlowClients(baseUrl: string, count: number): { stop(): void; closed(): number } {
  const { hostname, port } = new URL(baseUrl);
  const sockets = new Set<Socket>();
  let closed = 0;
  let running = true;
  const open = (): void => {
    if (!running) return;
    const socket = connect(Number(port), hostname);
    sockets.add(socket);
    socket.write('GET /api/v1/node HTTP/1.1\r\nHost: bench\r\nX-Slow: ');
    const timer = setInterval(() => socket.write('a'), 1000);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      sockets.delete(socket);
      if (!running) return;
      closed += 1;
      open();
    });
  };
  for (let i = 0; i < count; i += 1) open();
  return {
    stop: () => {
      running = false;
      for (const socket of sockets) socket.destroy();
    },
    closed: () => closed,
  };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
