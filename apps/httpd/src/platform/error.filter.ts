import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toErrorResponse } from './error-response.js';

/**
 * The one global exception filter: typed domain errors become their status and the exact
 * bodies of docs/decisions.md; an unexpected error becomes a generic 500 and is logged once,
 * with its detail, here and nowhere else.
 */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('forge-httpd');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const response = toErrorResponse(exception);
    if (response.unexpected) {
      const request = http.getRequest<FastifyRequest>();
      const detail = exception instanceof Error ? (exception.stack ?? exception.message) : String(exception);
      // The path without its query: a query may name a private repository (logged at debug only).
      const query = request.url.indexOf('?');
      const path = query === -1 ? request.url : request.url.slice(0, query);
      this.logger.error(`${request.method} ${path} failed (request ${request.id}): ${detail}`);
    }
    // Headers a handler set describe its successful answer (caching docs/radicle-httpd.md §2.2, a raw file's or an
    // archive's type and name); an error answer has only its own (CORS is added on send).
    for (const name of Object.keys(reply.getHeaders())) reply.removeHeader(name);
    reply.code(response.status).headers(response.headers).send(response.body);
  }
}
