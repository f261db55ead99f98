import { type CallHandler, type ExecutionContext, Inject, Injectable, type NestInterceptor, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { BusyError } from '@forge-httpd/identity';
import { Semaphore } from '@forge-httpd/storage';
import type { FastifyReply } from 'fastify';
import { finalize, from, mergeMap, type Observable } from 'rxjs';
import { serializeJsonInTurns } from './json-in-turns.js';

/**
 * Pages of these routes built at once. Two cores and git's processes are kept busy by fewer,
 * but pages also wait (for a long walk's slot, for git), so a tighter bound costs throughput
 * on a flood of misses while a looser one lets memory grow with the number of clients.
 */
export const PAGE_BUILD_SLOTS = 16;

/** Pages that may wait for a slot; one more is refused (a `BusyError`, 503). */
export const MAX_WAITING_PAGE_BUILDS = 256;

/** Provider token of whether answers waiting for clients pass their bound (`SendStallGuard.pressed`). */
export const SEND_PRESSURE = Symbol('SEND_PRESSURE');

/**
 * Too many big pages are being built and waiting, or clients have not taken too many bytes of
 * answers already written: 503 with `retry-after`.
 */
function pageBuildsBusy(): BusyError {
  return new BusyError('too many big pages under way or waiting for their clients');
}

const BIG_PAGE = Symbol('BIG_PAGE');

/**
 * Marks a route whose page holds megabytes while it is built: a diff's patch and the blobs of
 * its `files` map (up to 8 MiB each), a blob's content (4 MiB), a raw file (10 MiB). Such
 * pages are built {@link PAGE_BUILD_SLOTS} at a time. Unbounded, many clients asking at once
 * for distinct diffs of a big repository take gigabytes: each request reads its diff and blobs
 * as soon as it comes, then holds them while it waits for the rest of its work.
 */
export const BigPage = (): MethodDecorator => SetMetadata(BIG_PAGE, true);

/** Content type of a JSON answer (what Fastify sets for a serialized object). */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * Runs the handlers of {@link BigPage} routes {@link PAGE_BUILD_SLOTS} at a time, the rest
 * waiting in arrival order. A slot is held until the handler's answer is ready and serialized;
 * writing it out is not waited for (a slow client holds no slot). A JSON answer is serialized
 * here, in turns of the event loop (json-in-turns.ts), instead of in one call by Fastify's
 * serializer. Cache hits never get here.
 */
@Injectable()
export class PageBuildsInterceptor implements NestInterceptor {
  private readonly slots = new Semaphore(PAGE_BUILD_SLOTS);

  constructor(
    private readonly reflector: Reflector,
    @Inject(SEND_PRESSURE) private readonly sends: { readonly pressed: boolean },
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (this.reflector.get<boolean | undefined>(BIG_PAGE, context.getHandler()) !== true) return next.handle();
    if (this.slots.pending >= PAGE_BUILD_SLOTS + MAX_WAITING_PAGE_BUILDS) throw pageBuildsBusy();
    return from(this.enter()).pipe(
      mergeMap((release) =>
        next.handle().pipe(
          mergeMap((answer) => serializedInTurns(context, answer)),
          finalize(release),
        ),
      ),
    );
  }

  /**
   * A slot, once clients have taken enough of what was written to them: answers that wait for
   * slow or stalled clients stay in this process (a few hundred stalled clients of big diff
   * pages hold gigabytes), so past the bound more big pages are refused until they drain or are
   * cut off.
   */
  private async enter(): Promise<() => void> {
    const release = await this.slots.acquire();
    if (this.sends.pressed) {
      release();
      throw pageBuildsBusy();
    }
    return release;
  }

  /** Pages being built plus pages waiting (diagnostics, tests). */
  get pending(): number {
    return this.slots.pending;
  }
}

/**
 * A JSON answer (a plain object or array) as its bytes, serialized in turns, with the JSON
 * content type Fastify would have set; anything else (a stream, a file's bytes) as it is.
 */
async function serializedInTurns(context: ExecutionContext, answer: unknown): Promise<unknown> {
  if (answer === null || typeof answer !== 'object' || Buffer.isBuffer(answer)) return answer;
  const prototype = Object.getPrototypeOf(answer) as unknown;
  if (prototype !== Object.prototype && prototype !== Array.prototype) return answer;
  const bytes = await serializeJsonInTurns(answer);
  context.switchToHttp().getResponse<FastifyReply>().header('content-type', JSON_CONTENT_TYPE);
  return bytes;
}
