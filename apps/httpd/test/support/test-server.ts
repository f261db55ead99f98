import { join } from 'node:path';
import type { LoggerService } from '@nestjs/common';
import type { Rid } from '@forge-httpd/identity';
import type { Flavour } from '@forge-httpd/storage';
import { ServerConfig } from '../../src/config/server-config.js';
import { readServerVersion } from '../../src/config/version.js';
import type { GitServerLimits } from '../../src/platform/git-processes.service.js';
import type { EventStreamOptions } from '../../src/events/event-stream-options.js';
import { type RunningServer, startServer } from '../../src/server.js';
import { RequestObserver } from '../../src/telemetry/request-observer.js';
import { pino } from 'pino';
import { registerServerFlavour } from './explorer-schemas/index.js';

/** Options of {@link startTestServer}. */
export interface TestServerOptions {
  home: string;
  flavour?: Flavour;
  /** Control socket path (default `<home>/node/control.sock`); keep it short, in os.tmpdir(). */
  socketPath?: string;
  /** Time to receive a whole request, in ms (default: the server's). */
  requestTimeoutMs?: number;
  /** Time an answer may wait for its client to take any byte, in ms (default: the server's). */
  sendStallTimeoutMs?: number;
  /** Bounds of clone/fetch/archive processes (default: the server's). */
  gitServerLimits?: GitServerLimits;
  /** Bounds and periods of the event streams (default: the server's). */
  eventStreams?: Partial<EventStreamOptions>;
  /** Also serve metrics and readiness on an ephemeral loopback port (`metricsUrl`). */
  metrics?: boolean;
  /** The server's own cache directory (default: none, nothing kept between runs). */
  cacheDir?: string;
  /** The clock file stamps are judged by, e.g. `SettleClock.now` (default: the real one). */
  now?: () => number;
  /** Packed objects a repository needs to get a commit-graph in `cacheDir` (default: the server's). */
  commitGraphMinObjects?: number;
  /** Commits a last-commit index needs to be kept in `cacheDir` (default: the server's). */
  lastCommitMinCommits?: number;
  /** `--memory-budget` in MiB (default: the server's). */
  memoryBudgetMiB?: number;
  /** Bytes of commit ids long answers hold together (default: the memory budget's share). */
  heldCommitIdBytes?: number;
  /** Byte bound of rendered answers kept (default: the memory budget's share; 0 keeps none). */
  responseCacheBytes?: number;
  /** `--alias NAME=RID` flags (default: none). */
  aliases?: ReadonlyMap<string, Rid>;
}

/** A server listening on an ephemeral loopback port. */
export interface TestServer {
  /** `http://127.0.0.1:<port>` — append `/api/v1/...`. */
  baseUrl: string;
  /** Every line the server logged (Nest logger and config.json warnings), for assertions. */
  logs: string[];
  /** The request log: one parsed JSON line per finished request, as logged at `info`. */
  requestLog: Array<Record<string, unknown>>;
  /** `http://127.0.0.1:<port>` of the metrics listener, when asked for. */
  metricsUrl: string | null;
  server: RunningServer;
  close(): Promise<void>;
}

class CapturingLogger implements LoggerService {
  constructor(private readonly lines: string[]) {}
  // Nest's startup chatter ("Mapped {…} route") is not interesting to assertions.
  log(): void {}
  error(message: unknown): void {
    this.lines.push(`error ${String(message)}`);
  }
  warn(message: unknown): void {
    this.lines.push(`warn ${String(message)}`);
  }
}

/**
 * Starts the real server (same factory as the CLI) on 127.0.0.1 with an ephemeral port over a
 * node home on disk. Logs are captured instead of printed.
 */
export async function startTestServer(options: TestServerOptions): Promise<TestServer> {
  const config = ServerConfig.create({
    home: options.home,
    homeSource: 'flag',
    flavour: options.flavour ?? 'forge',
    flavourReason: 'test',
    socketPath: options.socketPath ?? join(options.home, 'node', 'control.sock'),
    listen: { kind: 'tcp', host: '127.0.0.1', port: 0 },
    metricsListen: options.metrics === true ? { kind: 'tcp', host: '127.0.0.1', port: 0 } : null,
    cacheDir: options.cacheDir ?? null,
    memoryBudgetMiB: options.memoryBudgetMiB,
    aliases: options.aliases,
    version: readServerVersion(),
  });
  const logs: string[] = [];
  const requestLog: Array<Record<string, unknown>> = [];
  const requestLogger = pino(
    { level: 'info', base: undefined },
    { write: (line: string) => void requestLog.push(JSON.parse(line) as Record<string, unknown>) },
  );
  const server = await startServer({
    config,
    logger: new CapturingLogger(logs),
    log: (message) => logs.push(`config ${message}`),
    requestTimeoutMs: options.requestTimeoutMs,
    sendStallTimeoutMs: options.sendStallTimeoutMs,
    gitServerLimits: options.gitServerLimits,
    eventStreams: options.eventStreams,
    requests: new RequestObserver(requestLogger),
    now: options.now,
    commitGraphMinObjects: options.commitGraphMinObjects,
    lastCommitMinCommits: options.lastCommitMinCommits,
    heldCommitIdBytes: options.heldCommitIdBytes,
    responseCacheBytes: options.responseCacheBytes,
  });
  const port = server.address.kind === 'tcp' ? server.address.port : 0;
  const baseUrl = `http://127.0.0.1:${port}`;
  registerServerFlavour(baseUrl, config.flavour);
  const metrics = server.metricsAddress;
  const metricsUrl = metrics?.kind === 'tcp' ? `http://127.0.0.1:${metrics.port}` : null;
  return { baseUrl, logs, requestLog, metricsUrl, server, close: () => server.close() };
}
