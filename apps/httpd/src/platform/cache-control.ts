import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Observable, tap } from 'rxjs';

/** The caching classes of docs/radicle-httpd.md §2.2. */
export type CacheClass = 'immutable' | 'short' | 'activity' | 'no-cache';

/** Exact Cache-Control values per class (docs/radicle-httpd.md §2.2). */
const CACHE_CONTROL_VALUES: Readonly<Record<CacheClass, string>> = {
  immutable: 'public, max-age=604800, immutable',
  short: 'public, max-age=600, must-revalidate',
  activity: 'public, max-age=3600, must-revalidate',
  'no-cache': 'no-cache',
};

/** A fixed class, or a function of the request (null = no header), e.g. commits `?parent=`. */
export type CachePolicy = CacheClass | ((request: FastifyRequest) => CacheClass | null);

const CACHE_POLICY = Symbol('CACHE_POLICY');

/**
 * Declares the Cache-Control of a route's successful answers; error answers never get one.
 * @example `@CacheControl('immutable')` or `@CacheControl((req) => (hasParent(req) ? 'immutable' : null))`
 */
export const CacheControl = (policy: CachePolicy): MethodDecorator => SetMetadata(CACHE_POLICY, policy);

/** Sets the Cache-Control header of `reply` to a class's value. */
function setCacheControl(reply: FastifyReply, cacheClass: CacheClass): void {
  reply.header('cache-control', CACHE_CONTROL_VALUES[cacheClass]);
}

/** Applies {@link CacheControl} metadata once the handler has succeeded. */
@Injectable()
export class CacheControlInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const policy = this.reflector.get<CachePolicy | undefined>(CACHE_POLICY, context.getHandler());
    if (policy === undefined) return next.handle();
    const http = context.switchToHttp();
    return next.handle().pipe(
      tap(() => {
        const cacheClass = typeof policy === 'function' ? policy(http.getRequest<FastifyRequest>()) : policy;
        if (cacheClass !== null) setCacheControl(http.getResponse<FastifyReply>(), cacheClass);
      }),
    );
  }
}
