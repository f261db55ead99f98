import type { ErrorBody, TooLargeBody } from '@forge-httpd/api-types';

/** What the error filter sends for an exception. */
export interface ErrorResponse {
  status: number;
  body: ErrorBody | TooLargeBody;
  /** Extra headers (413: `cache-control: no-cache`). */
  headers: Record<string, string>;
  /** True for unexpected failures, which are logged with their detail. */
  unexpected: boolean;
}

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

/** Seconds a client is asked to wait when every git server process is busy. */
const BUSY_RETRY_AFTER_SECONDS = 10;

/** What a 503 says is busy, by error code. */
const BUSY_REASONS: Readonly<Record<string, string>> = {
  GIT_SERVER_BUSY: 'too many git processes running',
  RANGE_WALK_BUSY: 'too many long history walks under way',
  PAGE_BUILDS_BUSY: 'too many big pages under way or waiting for their clients',
};

/** `{"error": <reason phrase>, "code": status}` — the fixed bodies of docs/decisions.md. */
export function plainErrorBody(status: number): ErrorBody {
  return { error: REASONS[status] ?? REASONS[500] ?? '', code: status };
}

/**
 * Maps any thrown value to a response (ARCHITECTURE.md "Errors", docs/decisions.md): a `code`
 * ending in `_NOT_FOUND` → 404, starting with `INVALID_` → 400 with the error's message,
 * ending in `_TOO_LARGE` → 413 `[]` (the JSON blob routes); ending in `_OVER_LIMIT` → 413 and
 * `_FORBIDDEN` → 403 with their reason phrase; ending in `_BUSY` → 503 with `retry-after` (a
 * locked database: the plain reason phrase); Nest
 * HTTP exceptions keep their 4xx status with a fixed reason phrase; everything else → 500 with
 * a generic body.
 */
export function toErrorResponse(exception: unknown): ErrorResponse {
  const code = errorCode(exception);
  if (code?.endsWith('_NOT_FOUND')) return expected(404, plainErrorBody(404));
  if (code?.startsWith('INVALID_') && exception instanceof Error) {
    return expected(400, { error: exception.message, code: 400 });
  }
  if (code?.endsWith('_TOO_LARGE')) {
    return { status: 413, body: [], headers: { 'cache-control': 'no-cache' }, unexpected: false };
  }
  if (code?.endsWith('_OVER_LIMIT')) return expected(413, plainErrorBody(413));
  if (code?.endsWith('_FORBIDDEN')) return expected(403, plainErrorBody(403));
  if (code === 'DATABASE_BUSY') {
    return { status: 503, body: plainErrorBody(503), headers: { 'retry-after': '1' }, unexpected: false };
  }
  if (code?.endsWith('_BUSY')) {
    return {
      status: 503,
      body: { error: `Service Unavailable: ${BUSY_REASONS[code] ?? 'too busy'}, retry later`, code: 503 },
      headers: { 'retry-after': String(BUSY_RETRY_AFTER_SECONDS) },
      unexpected: false,
    };
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

function errorCode(exception: unknown): string | undefined {
  if (typeof exception !== 'object' || exception === null) return undefined;
  const code: unknown = (exception as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

// Nest's HttpException (thrown by the router for unknown routes) exposes getStatus().
function httpStatus(exception: unknown): number | undefined {
  if (typeof exception !== 'object' || exception === null) return undefined;
  const getStatus: unknown = (exception as { getStatus?: unknown }).getStatus;
  if (typeof getStatus !== 'function') return undefined;
  const status: unknown = getStatus.call(exception);
  return typeof status === 'number' ? status : undefined;
}
