import { NotFoundException } from '@nestjs/common';
import { toErrorResponse } from './error-response.js';

class CodedError extends Error {
  constructor(
    readonly code: string,
    message = 'detail /secret/path',
  ) {
    super(message);
  }
}

describe('toErrorResponse', () => {
  it('maps *_NOT_FOUND codes to the fixed 404 body', () => {
    expect(toErrorResponse(new CodedError('COMMIT_NOT_FOUND'))).toEqual({
      status: 404,
      body: { error: 'Not Found', code: 404 },
      headers: {},
      unexpected: false,
    });
  });

  it('maps INVALID_* codes to 400 with the error message', () => {
    const response = toErrorResponse(new CodedError('INVALID_RID', 'Invalid rid: expected rad:z…'));
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'Invalid rid: expected rad:z…', code: 400 });
  });

  it('maps *_TOO_LARGE codes to 413 [] with no-cache', () => {
    expect(toErrorResponse(new CodedError('BLOB_TOO_LARGE'))).toEqual({
      status: 413,
      body: [],
      headers: { 'cache-control': 'no-cache' },
      unexpected: false,
    });
  });

  it.each([
    ['RAW_FILE_OVER_LIMIT', 413, 'Payload Too Large'],
    ['PUSH_FORBIDDEN', 403, 'Forbidden'],
  ])('maps %s to %i with its reason phrase', (code, status, error) => {
    expect(toErrorResponse(new CodedError(code))).toEqual({ status, body: { error, code: status }, headers: {}, unexpected: false });
  });

  it.each([
    ['GIT_SERVER_BUSY', 'too many git processes running'],
    ['RANGE_WALK_BUSY', 'too many long history walks under way'],
    ['PAGE_BUILDS_BUSY', 'too many big pages under way or waiting for their clients'],
    ['OTHER_BUSY', 'too busy'],
  ])('maps %s to 503 with retry-after and what is busy', (code, reason) => {
    const response = toErrorResponse(new CodedError(code));
    expect(response.status).toBe(503);
    expect(response.body).toEqual({ error: `Service Unavailable: ${reason}, retry later`, code: 503 });
    expect(response.headers).toEqual({ 'retry-after': '10' });
  });

  it('maps Nest 404 exceptions to the fixed 404 body', () => {
    expect(toErrorResponse(new NotFoundException('Cannot GET /x')).body).toEqual({ error: 'Not Found', code: 404 });
  });

  it.each([new CodedError('GIT_COMMAND_FAILED'), new Error('boom'), 'string', null, undefined, { code: 42 }])(
    'maps anything else (%p) to a generic 500 marked unexpected',
    (exception) => {
      expect(toErrorResponse(exception)).toEqual({
        status: 500,
        body: { error: 'Internal Server Error', code: 500 },
        headers: {},
        unexpected: true,
      });
    },
  );
});
