import {
  AppError,
  FieldErrorCollector,
  conflict,
  forbidden,
  invalidField,
  invalidState,
  notFound,
  problem,
  statusOf,
  type ErrorCode,
} from './errors';

const CODES: [ErrorCode, number, string][] = [
  ['VALIDATION_FAILED', 400, 'validation-failed'],
  ['EXCHANGE_RATE_UNAVAILABLE', 400, 'exchange-rate-unavailable'],
  ['UNAUTHORIZED', 401, 'unauthorized'],
  ['FORBIDDEN', 403, 'forbidden'],
  ['NOT_FOUND', 404, 'not-found'],
  ['METHOD_NOT_ALLOWED', 405, 'method-not-allowed'],
  ['GONE', 410, 'gone'],
  ['CONFLICT', 409, 'conflict'],
  ['INVALID_STATE', 409, 'invalid-state'],
  ['IDEMPOTENCY_KEY_IN_USE', 409, 'idempotency-key-in-use'],
  ['IDEMPOTENCY_KEY_REUSED', 422, 'idempotency-key-reused'],
  ['PERIOD_CLOSED', 409, 'period-closed'],
  ['PAYLOAD_TOO_LARGE', 413, 'payload-too-large'],
  ['RATE_LIMITED', 429, 'rate-limited'],
  ['INTERNAL', 500, 'internal'],
  ['NOT_IMPLEMENTED', 501, 'not-implemented'],
  ['SERVICE_UNAVAILABLE', 503, 'service-unavailable'],
];

describe('problem', () => {
  it.each(CODES)('%s → status %i, type …/errors/%s, its title, the trace id', (code, status, slug) => {
    const body = problem(code, 'trace-1');
    expect(body).toEqual({
      type: `https://docs.travel-expense.example/errors/${slug}`,
      title: expect.any(String),
      status,
      code,
      traceId: 'trace-1',
    });
    expect(body.title.length).toBeGreaterThan(0);
    expect(statusOf(code)).toBe(status);
  });

  it('has a distinct title for every code', () => {
    const titles = CODES.map(([code]) => problem(code, 't').title);
    expect(new Set(titles).size).toBe(titles.length);
  });

  it('always has type, title, status, code, traceId, and then the optional detail and errors', () => {
    const body = problem('VALIDATION_FAILED', 't', 'Some detail.', { url: ['bad'] });
    expect(Object.keys(body)).toEqual(['type', 'title', 'status', 'code', 'traceId', 'detail', 'errors']);
  });

  it('keeps a detail that differs from the title', () => {
    expect(problem('CONFLICT', 't', 'The name is taken.')).toMatchObject({ detail: 'The name is taken.' });
  });

  it.each<[string, string | undefined]>([
    ['undefined', undefined],
    ['an empty string', ''],
    ['equal to the title', 'The request conflicts with the current state.'],
  ])('omits a detail that is %s', (_name, detail) => {
    expect(problem('CONFLICT', 't', detail)).not.toHaveProperty('detail');
  });

  it('keeps non-empty field errors as given', () => {
    const errors = { url: ['must use HTTPS', 'must not contain credentials'], 'eventTypes[0]': ['unknown'] };
    expect(problem('VALIDATION_FAILED', 't', undefined, errors).errors).toEqual(errors);
  });

  it.each<[string, Record<string, string[]> | undefined]>([
    ['undefined', undefined],
    ['an empty object', {}],
  ])('omits errors that are %s', (_name, errors) => {
    expect(problem('VALIDATION_FAILED', 't', undefined, errors)).not.toHaveProperty('errors');
  });
});

describe('AppError', () => {
  it.each(CODES)('%s has status %i', (code, status) => {
    const err = new AppError(code);
    expect(err).toBeInstanceOf(Error);
    expect(err.status).toBe(status);
    expect(err.code).toBe(code);
  });

  it('defaults its message to the title of the code (so problem() then omits the detail)', () => {
    const err = new AppError('FORBIDDEN');
    expect(err.message).toBe(problem('FORBIDDEN', 't').title);
    expect(problem(err.code, 't', err.message)).not.toHaveProperty('detail');
  });

  it('keeps a given message and field errors', () => {
    const err = new AppError('VALIDATION_FAILED', 'Bad.', { Type: ['is not a vehicle type'] });
    expect(err.message).toBe('Bad.');
    expect(err.errors).toEqual({ Type: ['is not a vehicle type'] });
  });
});

describe('error helpers', () => {
  it.each<[string, AppError, ErrorCode, string]>([
    ['notFound()', notFound(), 'NOT_FOUND', 'The resource does not exist.'],
    ['notFound("vehicle")', notFound('vehicle'), 'NOT_FOUND', 'The vehicle does not exist.'],
    ['forbidden', forbidden('ManageVehicles'), 'FORBIDDEN', 'This operation requires the ManageVehicles permission.'],
    ['conflict', conflict('in use'), 'CONFLICT', 'in use'],
    ['invalidState', invalidState('already Succeeded'), 'INVALID_STATE', 'already Succeeded'],
  ])('%s → %s with message %p', (_name, err, code, message) => {
    expect(err.code).toBe(code);
    expect(err.message).toBe(message);
  });

  it('invalidField → 400 VALIDATION_FAILED with one message under one key', () => {
    const err = invalidField('File', 'is not a decodable image');
    expect(err.status).toBe(400);
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(err.errors).toEqual({ File: ['is not a decodable image'] });
  });
});

describe('FieldErrorCollector', () => {
  const thrown = (run: () => void): AppError => {
    try {
      run();
    } catch (err) {
      return err as AppError;
    }
    throw new Error('expected a throw');
  };

  it('does not throw when nothing was added', () => {
    expect(() => new FieldErrorCollector().throwIfAny()).not.toThrow();
  });

  it('throws every collected error at once, grouped by field, in insertion order', () => {
    const c = new FieldErrorCollector();
    c.add('url', 'must use HTTPS');
    c.add('eventTypes', 'must name at least one event type');
    c.add('url', 'must not contain credentials');
    const err = thrown(() => c.throwIfAny());
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(err.status).toBe(400);
    expect(err.errors).toEqual({
      url: ['must use HTTPS', 'must not contain credentials'],
      eventTypes: ['must name at least one event type'],
    });
    expect(Object.keys(err.errors!)).toEqual(['url', 'eventTypes']);
  });

  it('throws with another code when asked', () => {
    const c = new FieldErrorCollector();
    c.add('currencyCode', 'no rate for 2026-01-01');
    const err = thrown(() => c.throwIfAny('EXCHANGE_RATE_UNAVAILABLE'));
    expect(err.code).toBe('EXCHANGE_RATE_UNAVAILABLE');
    expect(err.status).toBe(400);
    expect(err.errors).toEqual({ currencyCode: ['no rate for 2026-01-01'] });
  });
});
