// Issue 35 §4 through the gateway (docs/decisions/0192): the date-times of list queries have a bounded
// length, so a query (and the URL a service remembers an answer under) cannot carry an unbounded
// timestamp. A longer one is 400 VALIDATION_FAILED with the documented problem body, never a 500; the
// longest the contract allows (nanoseconds and an offset) is read.
import type { ApiClient } from '@travel/testkit';
import { startE2eStack, type E2eStack } from './support/stack';

describe('timestamps in queries have a bounded length', () => {
  let stack: E2eStack;
  let api: ApiClient;

  beforeAll(async () => {
    stack = await startE2eStack('cache-keys');
    api = (await stack.tenant('CZ')).api;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const longest = '2026-11-26T05:00:00.123456789+01:00'; // 35 characters
  const tooLong = `2026-11-26T05:00:00.${'1'.repeat(4000)}Z`;

  it.each([
    ['/api/v1/employees', 'updatedSince'],
    ['/api/v1/webhooks', 'updatedSince'],
    ['/api/v1/webhooks/0b3e0f0e-0000-4000-8000-000000000001/deliveries', 'updatedSince'],
    ['/api/v1/webhooks/0b3e0f0e-0000-4000-8000-000000000001/deliveries', 'createdFrom'],
    ['/api/v1/webhooks/0b3e0f0e-0000-4000-8000-000000000001/deliveries', 'createdBefore'],
  ])('%s?%s= longer than 35 characters is 400 VALIDATION_FAILED under its name', async (path, name) => {
    const res = await api.get(`${path}?${name}=${encodeURIComponent(tooLong)}`);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body).toEqual({
      type: expect.any(String),
      title: expect.any(String),
      status: 400,
      code: 'VALIDATION_FAILED',
      detail: expect.any(String),
      errors: { [name]: ['must NOT have more than 35 characters'] },
      traceId: expect.any(String),
    });
  });

  it('reads the longest date-time the contract allows: nanoseconds and an offset', async () => {
    expect(longest).toHaveLength(35);
    const res = await api.get(`/api/v1/employees?updatedSince=${encodeURIComponent(longest)}`);
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual(expect.any(Array));
  });

  it('one character more is refused, and asking again is refused again (nothing remembered lets it through)', async () => {
    const over = '2026-11-26T05:00:00.1234567891+01:00';
    for (let i = 0; i < 2; i++) {
      const res = await api.get(`/api/v1/employees?updatedSince=${encodeURIComponent(over)}`);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ updatedSince: ['must NOT have more than 35 characters'] });
    }
  });
});
