import type { ErrorBody, TooLargeBody } from '@forge-httpd/api-types';
import { errorAnswerOf } from './error-table.js';

/** What the error filter sends for an exception. */
export interface ErrorResponse {
  status: number;
  body: ErrorBody | TooLargeBody;
  /** Extra headers (413: `cache-control: no-cache`). */
  headers: Record<string, string>;
  /** True for unexpected failures, which are logged with their detail. */
  unexpected: boolean;
}

/** The JSON blob and readme routes, whose 413 is radicle-httpd's `[]` (docs/api.md 17), and blame, which answers as blob. */
const EMPTY_LIST_ON_413 = /^\/api\/v1\/repos\/:rid\/(?:blob|readme|blame)\//;

const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** `{"error": <reason phrase>, "code": status}` — the fixed bodies of docs/decisions.md. */
export function plainErrorBody(status: number): ErrorBody {
  return { error: REASONS[status] ?? REASONS[500] ?? '', code: status };
}

/**
 * Maps any thrown value to a response (ARCHITECTURE.md "Errors", docs/decisions.md): an error
 * of one of the kinds answers as its row of {@link ERROR_TABLE} says; a 413 of the blob and
 * readme routes is `[]` with `cache-control: no-cache` (docs/api.md 17); Nest HTTP exceptions
 * keep their 4xx status with a fixed reason phrase; everything else → 500 with a generic body.
 * @param route - the route's pattern as Fastify registered it (`request.routeOptions.url`)
 */
export function toErrorResponse(exception: unknown, route = ''): ErrorResponse {
  const answer = errorAnswerOf(exception);
  if (answer !== undefined) {
    if (answer.status === 413 && EMPTY_LIST_ON_413.test(route)) {
      return { status: 413, body: [], headers: { 'cache-control': 'no-cache' }, unexpected: false };
    }
    const { status, message, headers, unexpected } = answer;
    const error = message === 'reason' ? plainErrorBody(status).error : message((exception as Error).message);
    return { status, body: { error, code: status }, headers: { ...headers }, unexpected };
  }
  const status = httpStatus(exception);
  if (status !== undefined && status >= 400 && status < 500) {
    return expected(status, { error: REASONS[status] ?? 'Bad Request', code: status });
  }
  return { status: 500, body: plainErrorBody(500), headers: {}, unexpected: true };
}

function expected(status: number, body: ErrorBody): ErrorResponse {
  return { status, body, headers: {}, unexpected: false };
}

// Nest's HttpException (thrown by the router for unknown routes) exposes getStatus().
function httpStatus(exception: unknown): number | undefined {
  if (typeof exception !== 'object' || exception === null) return undefined;
  const getStatus: unknown = (exception as { getStatus?: unknown }).getStatus;
  if (typeof getStatus !== 'function') return undefined;
  const status: unknown = getStatus.call(exception);
  return typeof status === 'number' ? status : undefined;
}
