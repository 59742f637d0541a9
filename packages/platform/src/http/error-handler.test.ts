import type { NextFunction, Request, Response } from 'express';
import { AppError, type ProblemBody } from '../errors';
import type { Logger } from '../logger';
import { errorHandler, fieldKey, notFoundHandler } from './error-handler';

describe('fieldKey', () => {
  it.each<[string | undefined, string]>([
    ['/body/url', 'url'],
    ['/body/eventTypes/0', 'eventTypes[0]'],
    ['/body/eventTypes/12', 'eventTypes[12]'],
    ['.query.page', 'page'],
    ['.query.pageSize', 'pageSize'],
    ['/params/id', 'id'],
    ['/path/id', 'id'],
    ['/headers/x-api-key', 'x-api-key'],
    ['/body/a/b/2/c', 'a.b[2].c'],
    ['.body.a.b.2.c', 'a.b[2].c'],
    ['/body/expenses/0/amount', 'expenses[0].amount'],
    ['/body/matrix/1/2', 'matrix[1][2]'],
    ['/body', 'body'],
    ['/query', 'query'],
    ['/url', 'url'],
    ['/Type', 'Type'],
    [undefined, 'body'],
    ['', 'body'],
  ])('%p → %p', (path, key) => {
    expect(fieldKey(path)).toBe(key);
  });
});

// --- fakes of what errorHandler touches -------------------------------------------------------------

interface Sent {
  status?: number;
  type?: string;
  raw?: string;
  headers: Record<string, string>;
}

interface FakeRes {
  headersSent: boolean;
  status: jest.Mock<FakeRes, [number]>;
  type: jest.Mock<FakeRes, [string]>;
  json: jest.Mock<FakeRes, [unknown]>;
  setHeader: jest.Mock<FakeRes, [string, string]>;
}

function fakeRes(headersSent = false) {
  const sent: Sent = { headers: {} };
  const res: FakeRes = {
    headersSent,
    status: jest.fn((code: number) => {
      sent.status = code;
      return res;
    }),
    type: jest.fn((type: string) => {
      sent.type = type;
      return res;
    }),
    json: jest.fn((body: unknown) => {
      sent.raw = JSON.stringify(body);
      return res;
    }),
    setHeader: jest.fn((name: string, value: string) => {
      sent.headers[name.toLowerCase()] = value;
      return res;
    }),
  };
  return { res: res as unknown as Response, mock: res, sent };
}

const TRACE = 'req-abc-123';
const fakeReq = () => ({ requestId: TRACE, path: '/api/v1/webhooks', method: 'POST' }) as unknown as Request;
const fakeLogger = () => ({ error: jest.fn(), warn: jest.fn() });

function handle(err: unknown) {
  const logger = fakeLogger();
  const { res, sent } = fakeRes();
  const next = jest.fn();
  errorHandler(logger as unknown as Logger)(err, fakeReq(), res, next as unknown as NextFunction);
  const body = sent.raw === undefined ? undefined : (JSON.parse(sent.raw) as ProblemBody);
  return { sent, body, logger, next };
}

const typeUrl = (slug: string) => `https://docs.travel-expense.example/errors/${slug}`;

describe('errorHandler', () => {
  describe('AppError', () => {
    it.each([
      ['VALIDATION_FAILED', 400, 'validation-failed'],
      ['EXCHANGE_RATE_UNAVAILABLE', 400, 'exchange-rate-unavailable'],
      ['UNAUTHORIZED', 401, 'unauthorized'],
      ['FORBIDDEN', 403, 'forbidden'],
      ['NOT_FOUND', 404, 'not-found'],
      ['METHOD_NOT_ALLOWED', 405, 'method-not-allowed'],
      ['CONFLICT', 409, 'conflict'],
      ['INVALID_STATE', 409, 'invalid-state'],
      ['PAYLOAD_TOO_LARGE', 413, 'payload-too-large'],
      ['RATE_LIMITED', 429, 'rate-limited'],
      ['NOT_IMPLEMENTED', 501, 'not-implemented'],
      ['SERVICE_UNAVAILABLE', 503, 'service-unavailable'],
    ] as const)('%s → HTTP %i with its problem body', (code, status, slug) => {
      const { sent, body, logger } = handle(new AppError(code, 'Something specific happened.'));
      expect(sent.status).toBe(status);
      expect(sent.type).toBe('application/problem+json');
      expect(body).toEqual({
        type: typeUrl(slug),
        title: expect.any(String),
        status,
        code,
        detail: 'Something specific happened.',
        traceId: TRACE,
      });
      expect(logger.error).not.toHaveBeenCalled();
    });

    it('carries the field errors of the AppError', () => {
      const errors = { Type: ['must be Company or Personal'], category: ['is required'] };
      const { sent, body } = handle(new AppError('VALIDATION_FAILED', undefined, errors));
      expect(sent.status).toBe(400);
      expect(body).toEqual({
        type: typeUrl('validation-failed'),
        title: 'The request is not valid.',
        status: 400,
        code: 'VALIDATION_FAILED',
        errors,
        traceId: TRACE,
      });
    });
  });

  describe('body-parser errors', () => {
    it('malformed JSON → 400 VALIDATION_FAILED under errors.body', () => {
      const err = Object.assign(new SyntaxError('Unexpected token } in JSON at position 7'), {
        type: 'entity.parse.failed',
        status: 400,
      });
      const { sent, body } = handle(err);
      expect(sent.status).toBe(400);
      expect(sent.type).toBe('application/problem+json');
      expect(body).toEqual({
        type: typeUrl('validation-failed'),
        title: 'The request is not valid.',
        status: 400,
        code: 'VALIDATION_FAILED',
        detail: 'The body is not valid JSON.',
        errors: { body: ['is not valid JSON'] },
        traceId: TRACE,
      });
      expect(JSON.stringify(body)).not.toContain('Unexpected token');
    });

    it.each([
      ['body-parser type', { type: 'entity.too.large', status: 413, message: 'request entity too large' }],
      ['bare 413 status', { status: 413, message: 'too big' }],
    ])('oversized body (%s) → 413 PAYLOAD_TOO_LARGE', (_name, err) => {
      const { sent, body } = handle(err);
      expect(sent.status).toBe(413);
      expect(body).toEqual({
        type: typeUrl('payload-too-large'),
        title: 'The request body is too large.',
        status: 413,
        code: 'PAYLOAD_TOO_LARGE',
        traceId: TRACE,
      });
    });
  });

  describe('express-openapi-validator errors', () => {
    it('400 with issues → VALIDATION_FAILED keyed by field', () => {
      const { sent, body } = handle({
        status: 400,
        message: 'request/body/url must match format "uri"',
        errors: [
          { path: '/body/url', message: 'x' },
          { path: '/body/eventTypes/0', message: 'must be equal to one of the allowed values' },
          { path: '/body/url', message: 'y' },
          { path: '.query.page', message: 'must be >= 1' },
          { message: 'must have required property eventTypes' },
          { path: '/body/a/b/2/c' },
        ],
      });
      expect(sent.status).toBe(400);
      expect(body).toEqual({
        type: typeUrl('validation-failed'),
        title: 'The request is not valid.',
        status: 400,
        code: 'VALIDATION_FAILED',
        detail: 'request/body/url must match format "uri"',
        errors: {
          url: ['x', 'y'],
          'eventTypes[0]': ['must be equal to one of the allowed values'],
          page: ['must be >= 1'],
          body: ['must have required property eventTypes'],
          'a.b[2].c': ['is invalid'],
        },
        traceId: TRACE,
      });
    });

    it.each([
      [401, 'UNAUTHORIZED'],
      [403, 'FORBIDDEN'],
      [404, 'NOT_FOUND'],
      [429, 'RATE_LIMITED'],
    ])('%i → keeps the status with code %s and no field errors', (status, code) => {
      const { sent, body } = handle({
        status,
        message: 'from the validator',
        errors: [{ path: '/body/url', message: 'x' }],
      });
      expect(sent.status).toBe(status);
      expect(body).toMatchObject({ status, code, detail: 'from the validator', traceId: TRACE });
      expect(body).not.toHaveProperty('errors');
    });

    it('405 (a method the path does not have) → 405 METHOD_NOT_ALLOWED with the Allow header it names', () => {
      const { sent, body } = handle({
        status: 405,
        message: 'PATCH method not allowed',
        errors: [],
        headers: { Allow: 'GET, PUT' },
      });
      expect(sent.status).toBe(405);
      expect(sent.headers.allow).toBe('GET, PUT');
      expect(body).toMatchObject({
        status: 405,
        code: 'METHOD_NOT_ALLOWED',
        type: typeUrl('method-not-allowed'),
      });
      expect(body).not.toHaveProperty('errors');
    });

    // Other 4xx statuses of the validator (406, 415, …) have no code of their own in API-SURFACE.md:
    // they are folded into 400 VALIDATION_FAILED, with the status line and the body agreeing.
    it.each([406, 415])('%i → folded into 400 VALIDATION_FAILED (status line and body agree)', (status) => {
      const { sent, body } = handle({ status, message: `validator said ${status}`, errors: [] });
      expect(sent.status).toBe(400);
      expect(body).toEqual({
        type: typeUrl('validation-failed'),
        title: 'The request is not valid.',
        status: 400,
        code: 'VALIDATION_FAILED',
        detail: `validator said ${status}`,
        traceId: TRACE,
      });
    });

    it('a 4xx without an errors array is not treated as a validator error', () => {
      const { sent, body, logger } = handle({ status: 400, message: 'no issues list' });
      expect(sent.status).toBe(500);
      expect(body?.code).toBe('INTERNAL');
      expect(logger.error).toHaveBeenCalledTimes(1);
    });

    // Other body-parser / raw-body failures are bad input too (API-SURFACE.md: INTERNAL is "never for bad
    // input"): any exposed 4xx of the HTTP stack is answered 400 VALIDATION_FAILED, logged as nothing.
    it.each([
      ['charset.unsupported', 415, 'unsupported charset "LATIN1"'],
      ['encoding.unsupported', 415, 'unsupported content encoding "compress"'],
      ['request.size.invalid', 400, 'request size did not match content length'],
    ])('body-parser %s (%i) → 400 VALIDATION_FAILED, not 500', (type, status, message) => {
      const { sent, body, logger } = handle(Object.assign(new Error(message), { type, status, expose: true }));
      expect(sent.status).toBe(400);
      expect(body).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', traceId: TRACE });
      expect(logger.error).not.toHaveBeenCalled();
    });

    it.each([null, undefined])('a %p error → 500 INTERNAL without crashing the handler', (err) => {
      const { sent, body } = handle(err);
      expect(sent.status).toBe(500);
      expect(body?.code).toBe('INTERNAL');
    });

    it.each(['Malformed part header', 'Unexpected end of form'])(
      'a multipart body the parser cannot read (%s, wrapped as a 500) → 400 VALIDATION_FAILED',
      (message) => {
        const { sent, body, logger } = handle({ status: 500, message, errors: [{ path: '/x', message }] });
        expect(sent.status).toBe(400);
        expect(body).toMatchObject({ code: 'VALIDATION_FAILED', errors: { body: [message] } });
        expect(logger.error).not.toHaveBeenCalled();
      },
    );

    it('a 5xx with an errors array is not treated as a validator error', () => {
      const { sent, body } = handle({ status: 502, message: 'upstream', errors: [] });
      expect(sent.status).toBe(500);
      expect(body?.code).toBe('INTERNAL');
    });
  });

  describe('multipart bodies busboy cannot read (issue 21: a 500 under fuzzing)', () => {
    it.each(['Malformed part header', 'Unexpected end of form', 'Unexpected end of file', 'Malformed urlencoded form'])(
      'the validator\'s 500 "%s" → 400 VALIDATION_FAILED under errors.body, not logged as ours',
      (message) => {
        // What express-openapi-validator's multipart middleware passes on for busboy's error.
        const err = { status: 500, message, errors: [{ path: '/api/v1/travel-entries/x/attachments', message }] };
        const { sent, body, logger } = handle(err);
        expect(sent.status).toBe(400);
        expect(body?.code).toBe('VALIDATION_FAILED');
        expect(body?.errors).toEqual({ body: [message] });
        expect(logger.error).not.toHaveBeenCalled();
      },
    );

    it('another 500 of the validator stays a 500', () => {
      const { sent } = handle({ status: 500, message: 'Unexpected field', errors: [{ message: 'Unexpected field' }] });
      expect(sent.status).toBe(500);
    });
  });

  describe('unexpected errors', () => {
    it.each<[string, unknown]>([
      ['an Error', new Error('db password is hunter2')],
      ['a TypeError', new TypeError("Cannot read properties of undefined (reading 'hunter2')")],
      ['a thrown string', 'hunter2'],
      ['a plain object', { secret: 'hunter2' }],
    ])('%s → 500 INTERNAL without leaking anything, logged once', (_name, err) => {
      const { sent, body, logger } = handle(err);
      expect(sent.status).toBe(500);
      expect(sent.type).toBe('application/problem+json');
      expect(body).toEqual({
        type: typeUrl('internal'),
        title: 'Internal error.',
        status: 500,
        code: 'INTERNAL',
        traceId: TRACE,
      });
      expect(sent.raw).not.toContain('hunter2');
      expect(logger.error).toHaveBeenCalledTimes(1);
      expect(logger.error).toHaveBeenCalledWith(
        expect.objectContaining({ err, requestId: TRACE, path: '/api/v1/webhooks' }),
        'unhandled error',
      );
    });
  });

  describe('a dependency that is away (store or broker restarting)', () => {
    const named = (name: string, message: string, extra: object = {}) =>
      Object.assign(new Error(message), { name, ...extra });
    it.each<[string, unknown]>([
      ['the store connection closed', named('MongoNetworkError', 'connection 4 to 127.0.0.1:27017 closed')],
      ['no store server to select', named('MongoServerSelectionError', 'connect ECONNREFUSED 127.0.0.1:27017')],
      ['a refused connection', named('Error', 'connect ECONNREFUSED', { code: 'ECONNREFUSED' })],
      ['a closed broker channel', named('IllegalOperationError', 'Channel closed')],
      ['mongoose buffering gave up', new Error('Operation `employees.insertOne()` buffering timed out after 10000ms')],
    ])('%s → 503 SERVICE_UNAVAILABLE (try again), a warning, never a 500', (_name, err) => {
      const { sent, body, logger } = handle(err);
      expect(sent.status).toBe(503);
      expect(body).toEqual({
        type: typeUrl('service-unavailable'),
        title: 'A dependency is unavailable; try again.',
        status: 503,
        code: 'SERVICE_UNAVAILABLE',
        traceId: TRACE,
      });
      expect(logger.error).not.toHaveBeenCalled();
      expect(logger.warn).toHaveBeenCalledTimes(1);
    });
  });

  describe('every body', () => {
    it.each<[string, unknown]>([
      ['AppError', new AppError('CONFLICT')],
      ['parse failure', { type: 'entity.parse.failed' }],
      ['too large', { type: 'entity.too.large' }],
      ['validator 400', { status: 400, errors: [{ path: '/body/url', message: 'x' }] }],
      ['validator 405', { status: 405, errors: [] }],
      ['validator 401', { status: 401, errors: [] }],
      ['unexpected', new Error('boom')],
    ])('%s: has type, title, status, code and traceId, matching the HTTP status', (_name, err) => {
      const { sent, body } = handle(err);
      expect(body).toEqual(
        expect.objectContaining({
          type: expect.stringMatching(/^https:\/\/docs\.travel-expense\.example\/errors\/[a-z-]+$/),
          title: expect.any(String),
          status: sent.status,
          code: expect.stringMatching(/^[A-Z_]+$/),
          traceId: TRACE,
        }),
      );
      expect(sent.type).toBe('application/problem+json');
      expect(body?.type.endsWith(body.code.toLowerCase().replace(/_/g, '-'))).toBe(true);
    });
  });

  it('does not write when the headers were already sent', () => {
    const { res, mock } = fakeRes(true);
    errorHandler(fakeLogger() as unknown as Logger)(
      new Error('late'),
      fakeReq(),
      res,
      jest.fn() as unknown as NextFunction,
    );
    expect(mock.status).not.toHaveBeenCalled();
    expect(mock.json).not.toHaveBeenCalled();
  });

  it('never calls next (it is the last handler)', () => {
    expect(handle(new Error('x')).next).not.toHaveBeenCalled();
  });
});

describe('notFoundHandler', () => {
  it('passes a NOT_FOUND AppError naming the method and path to next', () => {
    const next = jest.fn();
    notFoundHandler(
      { method: 'GET', path: '/api/v1/nope' } as unknown as Request,
      {} as Response,
      next as unknown as NextFunction,
    );
    expect(next).toHaveBeenCalledTimes(1);
    const err = next.mock.calls[0][0] as AppError;
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe('NOT_FOUND');
    expect(err.status).toBe(404);
    expect(err.message).toBe('No route for GET /api/v1/nope.');
  });
});
