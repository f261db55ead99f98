import { type ArgumentsHost, Catch, type ExceptionFilter, Inject, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RepositoryAccess } from '../repository-access/repository-access.service.js';
import { type ErrorResponse, toErrorResponse } from './error-response.js';
import { REPOSITORY_PRESENCE } from './tokens.js';
import { repositoryNotFound } from './repository-not-found.js';

/** What the filter asks about the repository a failed request read. */
export type RepositoryPresence = Pick<RepositoryAccess, 'isServed'>;

/**
 * Routes that read the repository their `{rid}` names (their patterns as Fastify registered
 * them): the JSON API's `/repos/{rid}/…` and the raw files.
 */
const REPOSITORY_ROUTE = /^\/(?:api\/v1\/repos|raw)\/:rid(?:\/|$)/;

/**
 * The one global exception filter: errors of the kinds become the status and exact body of
 * their row in the error table (error-table.ts, docs/decisions.md); an unexpected error becomes a generic 500 and is logged once,
 * with its detail, here and nowhere else — unless the request read a repository that is no
 * longer served (moved, removed or made private while it was read): that answers 404 like an
 * absent one, as the next request will (docs/decisions.md "Gone while being read == absent").
 */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('forge-httpd');

  constructor(@Inject(REPOSITORY_PRESENCE) private readonly repositories: RepositoryPresence) {}

  async catch(exception: unknown, host: ArgumentsHost): Promise<void> {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const route = request.routeOptions.url ?? '';
    let response = toErrorResponse(exception, route);
    if (response.unexpected && (await this.repositoryGone(request))) response = toErrorResponse(repositoryNotFound(), route);
    if (response.unexpected) this.logFailure(request, exception);
    if (reply.sent) return;
    send(reply, response);
  }

  /** True when the request read a repository through its `{rid}` and it is not served now. */
  private async repositoryGone(request: FastifyRequest): Promise<boolean> {
    const rid = (request.params as Record<string, unknown> | undefined)?.['rid'];
    if (typeof rid !== 'string' || !REPOSITORY_ROUTE.test(request.routeOptions.url ?? '')) return false;
    try {
      return !(await this.repositories.isServed(rid));
    } catch {
      return false;
    }
  }

  private logFailure(request: FastifyRequest, exception: unknown): void {
    const detail = exception instanceof Error ? (exception.stack ?? exception.message) : String(exception);
    // The path without its query: a query may name a private repository (logged at debug only).
    const query = request.url.indexOf('?');
    const path = query === -1 ? request.url : request.url.slice(0, query);
    this.logger.error(`${request.method} ${path} failed (request ${request.id}): ${detail}`);
  }
}

function send(reply: FastifyReply, response: ErrorResponse): void {
  // Headers a handler set describe its successful answer (caching docs/radicle-httpd.md §2.2, a raw file's or an
  // archive's type and name); an error answer has only its own (CORS is added on send).
  for (const name of Object.keys(reply.getHeaders())) reply.removeHeader(name);
  reply.code(response.status).headers(response.headers).send(response.body);
}
