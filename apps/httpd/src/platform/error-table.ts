import type { ErrorCode } from '@forge-httpd/identity';

/** How the app answers one kind of error (docs/api.md "Errors", docs/decisions.md). */
export interface ErrorAnswer {
  readonly status: number;
  /**
   * The body's `error`: `reason` is the status's reason phrase (`Not Found`); a function builds
   * it from the error's message, which that kind keeps safe for clients.
   */
  readonly message: 'reason' | ((message: string) => string);
  /** Headers of the answer (`retry-after`). */
  readonly headers: Readonly<Record<string, string>>;
  /** An unexpected failure: answered with the generic 500 body and logged once with its detail. */
  readonly unexpected: boolean;
  /** What the OpenAPI document says of the answer. */
  readonly description: string;
}

/** Seconds a client is asked to wait when too much work of one kind is under way. */
const BUSY_RETRY_AFTER_SECONDS = 10;

const INTERNAL_ERROR: ErrorAnswer = {
  status: 500,
  message: 'reason',
  headers: {},
  unexpected: true,
  description: '`{"error":"Internal Server Error","code":500}`; logged by the server.',
};

/**
 * The one table of error answers: each error kind's `code` (libs/identity/src/error-kinds.ts)
 * → status, message and headers. The error filter answers from it and the OpenAPI generator
 * describes the error responses from it.
 */
export const ERROR_TABLE: Readonly<Record<ErrorCode, ErrorAnswer>> = {
  'not-found': {
    status: 404,
    message: 'reason',
    headers: {},
    unexpected: false,
    description:
      '`{"error":"Not Found","code":404}`: unknown route, or an absent or private repository, commit, path or object (a private repository answers exactly like an absent one).',
  },
  'invalid-input': {
    status: 400,
    message: (message) => message,
    headers: {},
    unexpected: false,
    description: 'A malformed parameter; `error` names it (e.g. `Invalid rid: expected rad:z… base58 of 20 bytes`).',
  },
  'too-large': { status: 413, message: 'reason', headers: {}, unexpected: false, description: 'Past the server bound for this answer.' },
  forbidden: { status: 403, message: 'reason', headers: {}, unexpected: false, description: '`{"error":"Forbidden","code":403}`: pushes are refused.' },
  busy: {
    status: 503,
    message: (what) => `Service Unavailable: ${what}, retry later`,
    headers: { 'retry-after': String(BUSY_RETRY_AFTER_SECONDS) },
    unexpected: false,
    description:
      'Too much work of one kind under way (git server processes, at most 4; long history walks; big pages), or git work past its time limit: retry after `retry-after` seconds.',
  },
  // A node database locked past the reader's wait: retried soon, so the plain reason phrase.
  locked: {
    status: 503,
    message: 'reason',
    headers: { 'retry-after': '1' },
    unexpected: false,
    description: '`{"error":"Service Unavailable","code":503}`: a node database is locked by another connection.',
  },
  'invalid-data': INTERNAL_ERROR,
  'process-failed': INTERNAL_ERROR,
  rejected: INTERNAL_ERROR,
};

/**
 * The table's row for an error of one of the kinds, by its `code`.
 * @returns undefined for anything else (a Nest exception, a plain `Error`, a thrown non-error)
 */
export function errorAnswerOf(exception: unknown): ErrorAnswer | undefined {
  if (!(exception instanceof Error)) return undefined;
  const code: unknown = (exception as { code?: unknown }).code;
  return typeof code === 'string' && Object.hasOwn(ERROR_TABLE, code) ? ERROR_TABLE[code as ErrorCode] : undefined;
}
