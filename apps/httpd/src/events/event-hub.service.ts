import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { BusyError, type Rid } from '@forge-httpd/identity';
import type { NodeHome } from '@forge-httpd/storage';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ServerConfig } from '../config/server-config.js';
import { appendCorsHeaders } from '../platform/http-hooks.js';
import { repositoryNotFound } from '../platform/repository-not-found.js';
import { NODE_HOME } from '../platform/tokens.js';
import { RepositoryAccess } from '../repository-access/repository-access.service.js';
import { EventStreamClient } from './event-stream-client.js';
import { EVENT_STREAM_OPTIONS, type EventStreamOptions } from './event-stream-options.js';
import { toEventFrame } from './event-frames.js';
import type { StorageEvent } from './storage-changes.js';
import { StorageWatcher } from './storage-watcher.js';

/** The first frame of a stream: what was there when it opened is known, changes follow. */
const READY_FRAME = ': ready\n\n';
/** The comment written to every stream each heartbeat period, so proxies keep it open. */
const HEARTBEAT_FRAME = ': keep-alive\n\n';

/** A stream asked for: the request, its reply, and the `{rid}` path text (null: every repository). */
export interface StreamRequest {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  readonly ridText: string | null;
}

/**
 * The event streams of `GET /events` and `GET /repos/{rid}/events` (docs/api.md "Live
 * updates"): one {@link StorageWatcher} for the whole server, running while a stream is open,
 * fanned out to every stream; one heartbeat timer for all of them; a bound on streams.
 */
@Injectable()
export class EventHub implements OnModuleDestroy {
  private readonly logger = new Logger('events');
  private readonly clients = new Set<EventStreamClient>();
  private watcher: StorageWatcher | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  /** Streams past their checks, waiting for the watcher's first look. */
  private opening = 0;
  private lastId = 0;

  constructor(
    @Inject(EVENT_STREAM_OPTIONS) private readonly options: EventStreamOptions,
    @Inject(NODE_HOME) private readonly home: NodeHome,
    private readonly config: ServerConfig,
    private readonly access: RepositoryAccess,
  ) {}

  /** Streams open now. */
  get openStreams(): number {
    return this.clients.size;
  }

  /**
   * Opens a stream on the reply (which this takes over), or throws before anything is written.
   * @throws InvalidInputError (400) / NotFoundError (404) for a malformed, absent or private `{rid}`
   * @throws BusyError (503) when {@link EventStreamOptions.maxClients} streams are open
   */
  async open(stream: StreamRequest): Promise<void> {
    const rid = stream.ridText === null ? null : (await this.access.openPublic(stream.ridText)).rid;
    if (this.clients.size + this.opening >= this.options.maxClients) throw new BusyError('too many event streams open');
    if (stream.request.method === 'HEAD') return this.answerHead(stream.reply);
    const watcher = this.startWatcher();
    this.opening += 1;
    try {
      await watcher.start();
    } catch (error) {
      // A first look that failed is not kept: the next stream starts a new watcher.
      this.opening -= 1;
      this.stopWhenIdle();
      throw error;
    }
    this.opening -= 1;
    // Made private (or removed) since the check above: absent, as at the check.
    if (rid !== null && !watcher.isPublic(rid)) {
      this.stopWhenIdle();
      throw repositoryNotFound();
    }
    if (stream.request.raw.socket.destroyed) {
      // The client left while the first look ran: nothing to answer.
      stream.reply.hijack();
      this.stopWhenIdle();
      return;
    }
    this.attach(stream, rid);
  }

  /** Ends every stream and stops watching (the server is closing). */
  onModuleDestroy(): void {
    for (const client of this.clients) client.end();
    this.clients.clear();
    this.stopWhenIdle();
  }

  /** A HEAD: the stream's headers, no stream (the watcher is not started for it). */
  private answerHead(reply: FastifyReply): void {
    this.writeHead(reply).end();
  }

  /**
   * Takes the reply over and writes the stream's head: Fastify's onSend hooks do not run for a
   * hijacked reply, so the CORS headers are added here; `x-accel-buffering: no` asks nginx to
   * pass events on at once instead of buffering them.
   */
  private writeHead(reply: FastifyReply): FastifyReply['raw'] {
    reply.hijack();
    appendCorsHeaders(reply);
    const headers: Record<string, string | number | string[]> = {};
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) headers[name] = value;
    return reply.raw.writeHead(200, { ...headers, 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
  }

  private attach(stream: StreamRequest, rid: Rid | null): void {
    const response = this.writeHead(stream.reply);
    const client = new EventStreamClient(response, rid, this.options.maxUnsentBytes);
    this.clients.add(client);
    response.once('close', () => {
      this.clients.delete(client);
      this.stopWhenIdle();
    });
    client.write(READY_FRAME);
    this.heartbeat ??= setInterval(() => {
      for (const open of this.clients) open.write(HEARTBEAT_FRAME);
    }, this.options.heartbeatMs);
  }

  private startWatcher(): StorageWatcher {
    this.watcher ??= new StorageWatcher({
      home: this.home,
      flavour: this.config.flavour,
      pollMs: this.options.pollMs,
      emit: (events) => this.dispatch(events),
      warn: (message) => this.logger.warn(message),
    });
    return this.watcher;
  }

  /** Stops the watcher and the heartbeat once no stream is open or opening. */
  private stopWhenIdle(): void {
    if (this.clients.size > 0 || this.opening > 0) return;
    this.watcher?.stop();
    this.watcher = null;
    if (this.heartbeat !== null) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  /**
   * Sends each event, with the next id, to every stream following its repository: one write
   * per stream and look (thousands of small writes per look would hold the event loop).
   */
  private dispatch(events: readonly StorageEvent[]): void {
    const frames = events.map((event) => {
      this.lastId += 1;
      return { event, frame: toEventFrame(this.lastId, event) };
    });
    const everything = frames.map(({ frame }) => frame).join('');
    for (const client of this.clients) {
      if (client.rid === null) {
        client.write(everything);
        continue;
      }
      const own = frames.filter(({ event }) => event.rid === client.rid);
      if (own.length === 0) continue;
      client.write(own.map(({ frame }) => frame).join(''));
      // A repository's own stream ends with it (removed or made private alike).
      if (own.some(({ event }) => event.type === 'repo' && !event.public)) client.end();
    }
  }
}
