import { NotFoundException } from '@nestjs/common';
import {
  BusyError,
  ForbiddenError,
  InvalidDataError,
  InvalidInputError,
  LockedError,
  NotFoundError,
  ProcessFailedError,
  RejectedError,
  TooLargeError,
} from '@forge-httpd/identity';
import { toErrorResponse } from './error-response.js';

const BLOB_ROUTE = '/api/v1/repos/:rid/blob/:sha/*';

describe('toErrorResponse', () => {
  it('maps not-found errors to the fixed 404 body', () => {
    expect(toErrorResponse(new NotFoundError('commit'))).toEqual({
      status: 404,
      body: { error: 'Not Found', code: 404 },
      headers: {},
      unexpected: false,
    });
  });

  it('maps invalid-input errors to 400 with the error message', () => {
    const response = toErrorResponse(new InvalidInputError('Invalid rid: expected rad:z…'));
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'Invalid rid: expected rad:z…', code: 400 });
  });

  it.each([BLOB_ROUTE, '/api/v1/repos/:rid/readme/:sha'])('maps too-large errors on %s to 413 [] with no-cache', (route) => {
    expect(toErrorResponse(new TooLargeError('blob too large'), route)).toEqual({
      status: 413,
      body: [],
      headers: { 'cache-control': 'no-cache' },
      unexpected: false,
    });
  });

  it.each([
    [new TooLargeError('raw file over the size limit'), 413, 'Payload Too Large'],
    [new ForbiddenError('pushes are not accepted'), 403, 'Forbidden'],
  ])('maps %p to %i with its reason phrase', (error, status, reason) => {
    expect(toErrorResponse(error, '/raw/:rid/:sha/*')).toEqual({ status, body: { error: reason, code: status }, headers: {}, unexpected: false });
  });

  it.each(['too many git processes running', 'too many long history walks under way'])(
    'maps busy errors to 503 with retry-after and what is busy',
    (reason) => {
      const response = toErrorResponse(new BusyError(reason));
      expect(response.status).toBe(503);
      expect(response.body).toEqual({ error: `Service Unavailable: ${reason}, retry later`, code: 503 });
      expect(response.headers).toEqual({ 'retry-after': '10' });
    },
  );

  it('maps a locked database to the plain 503 with a short retry-after', () => {
    expect(toErrorResponse(new LockedError('/home/node/policies.db is locked by another connection'))).toEqual({
      status: 503,
      body: { error: 'Service Unavailable', code: 503 },
      headers: { 'retry-after': '1' },
      unexpected: false,
    });
  });

  it('maps Nest 404 exceptions to the fixed 404 body', () => {
    expect(toErrorResponse(new NotFoundException('Cannot GET /x')).body).toEqual({ error: 'Not Found', code: 404 });
  });

  it.each([
    new ProcessFailedError('git failed /secret/path'),
    new InvalidDataError('object', 'detail /secret/path'),
    new RejectedError('not a delegate'),
    new Error('boom'),
    Object.assign(new Error('coded'), { code: 'COMMIT_NOT_FOUND' }),
    'string',
    null,
    undefined,
    { code: 'not-found' },
  ])('maps anything else (%p) to a generic 500 marked unexpected', (exception) => {
    expect(toErrorResponse(exception)).toEqual({
      status: 500,
      body: { error: 'Internal Server Error', code: 500 },
      headers: {},
      unexpected: true,
    });
  });
});
