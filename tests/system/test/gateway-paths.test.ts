// Issue 20, section 1: one path, checked once, forwarded as checked. Crafted paths through the real
// gateway never reach a handler but the canonical one, nor an operational endpoint; a service called
// directly refuses every spelling of its routes but the canonical one (decision 0097).
import { request } from 'node:http';
import type { RunningService } from '@travel/platform';
import { startEntriesStack, type EntriesStack } from './support/entries-stack';

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

/** Sends `path` byte for byte (fetch and URL would resolve dot segments and backslashes first). */
function send(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, contentType: String(res.headers['content-type']), text }));
    });
    req.once('error', reject);
    req.end(body);
  });
}

/** The body: a negative advance, which the canonical path refuses with 400. */
const NEGATIVE_ADVANCE = JSON.stringify({
  departureDate: '2026-11-02',
  returnDate: '2026-11-03',
  advancePayment: -900000,
  currencyCode: 'CZK',
});

/** How many requests a service has served on its API port, from its own /metrics (on its ops port). */
async function servedRequests(service: RunningService): Promise<number> {
  const text = await (await fetch(`${service.opsUrl}/metrics`)).text();
  return [...text.matchAll(/^http_requests_total\{[^}]*\} (\d+)$/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
}

/** What an operational endpoint answers: a Prometheus page or a health/readiness JSON. */
const OPERATIONAL = /# (HELP|TYPE) |"status":"(ok|ready|not ready)"/;

// [method, crafted path, status, code]: POSTs carry the negative advance.
const CRAFTED: Array<[string, string, number, string]> = [
  // The exploit and its spellings: dot segments raw, encoded in either case, half-encoded.
  ['POST', '/api/v1/travel-entries/%2e%2e/%2e%2e/%2e%2e/API/V1/travel-entries', 400, 'VALIDATION_FAILED'],
  ['POST', '/api/v1/travel-entries/%2E%2E/%2E%2E/%2E%2E/api/v1/travel-entries', 400, 'VALIDATION_FAILED'],
  ['POST', '/api/v1/travel-entries/../../../API/V1/travel-entries', 400, 'VALIDATION_FAILED'],
  ['POST', '/api/v1/travel-entries/.%2e/.%2e/.%2e/API/V1/travel-entries', 400, 'VALIDATION_FAILED'],
  ['POST', '/api/v1/travel-entries/%2e./%2e./%2e./API/V1/travel-entries', 400, 'VALIDATION_FAILED'],
  ['POST', '/api/v1/travel-entries/./travel-entries', 400, 'VALIDATION_FAILED'],
  ['POST', '/api/v1/%74ravel-entries/%2e%2e/%2e%2e/%2e%2e/API/V1/travel-entries', 400, 'VALIDATION_FAILED'],
  // Encoded slashes and backslashes, double encoding, overlong UTF-8 forms of "." and "/".
  ['POST', '/api/v1/travel-entries/..%2f..%2f..%2fAPI/V1/travel-entries', 400, 'VALIDATION_FAILED'],
  ['POST', '/api/v1/travel-entries%2F..%2F..%2F..%2Fapi%2Fv1%2Ftravel-entries', 400, 'VALIDATION_FAILED'],
  ['POST', '/api/v1/travel-entries/..%5c..%5c..%5cAPI/V1/travel-entries', 400, 'VALIDATION_FAILED'],
  ['POST', '/api/v1/travel-entries\\..\\..\\..\\API\\V1\\travel-entries', 400, 'VALIDATION_FAILED'],
  ['POST', '/api/v1/travel-entries/%252e%252e/%252e%252e/%252e%252e/API/V1/travel-entries', 400, 'VALIDATION_FAILED'],
  [
    'POST',
    '/api/v1/travel-entries/%c0%ae%c0%ae/%c0%ae%c0%ae/%c0%ae%c0%ae/API/V1/travel-entries',
    400,
    'VALIDATION_FAILED',
  ],
  ['POST', '/api/v1/travel-entries/%e0%80%ae%e0%80%ae/API/V1/travel-entries', 400, 'VALIDATION_FAILED'],
  ['POST', '/api/v1/travel-entries%c0%afx', 400, 'VALIDATION_FAILED'],
  // Another case of the prefix: only /api/v1 exactly is forwarded.
  ['POST', '/API/V1/travel-entries', 404, 'NOT_FOUND'],
  ['POST', '/Api/v1/travel-entries', 404, 'NOT_FOUND'],
  ['POST', '/api/V1/travel-entries', 404, 'NOT_FOUND'],
  ['POST', '/api/v1/Travel-Entries', 404, 'NOT_FOUND'],
  // Empty segments, a trailing "/", matrix parameters, NUL, trailing-dot segments.
  ['POST', '//api/v1/travel-entries', 400, 'VALIDATION_FAILED'],
  ['POST', '/api/v1//travel-entries', 400, 'VALIDATION_FAILED'],
  ['POST', '/api/v1/travel-entries/', 400, 'VALIDATION_FAILED'],
  ['POST', '/api/v1/travel-entries;jsessionid=x', 400, 'VALIDATION_FAILED'],
  ['POST', '/api/v1;/travel-entries', 400, 'VALIDATION_FAILED'],
  ['POST', '/api/v1/travel-entries%3b', 400, 'VALIDATION_FAILED'],
  ['POST', '/api/v1/travel-entries%00', 400, 'VALIDATION_FAILED'],
  ['POST', '/api/v1/travel-entries/%00/../../travel-entries', 400, 'VALIDATION_FAILED'],
  ['POST', '/api/v1/travel-entries.', 404, 'NOT_FOUND'],
  ['POST', '/api/v1/travel-entries/..', 400, 'VALIDATION_FAILED'],
  ['POST', '/api/v1/travel-entries/...', 400, 'VALIDATION_FAILED'],
  // The operational pages, and every other way to them.
  ['GET', '/api/v1/employees/%2e%2e/%2e%2e/%2e%2e/metrics', 400, 'VALIDATION_FAILED'],
  ['GET', '/api/v1/employees/%2e%2e/%2e%2e/%2e%2e/readyz', 400, 'VALIDATION_FAILED'],
  ['GET', '/api/v1/employees/%2e%2e/%2e%2e/%2e%2e/healthz', 400, 'VALIDATION_FAILED'],
  ['GET', '/api/v1/employees/..%2f..%2f..%2fmetrics', 400, 'VALIDATION_FAILED'],
  ['GET', '/api/v1/employees/%252e%252e/%252e%252e/%252e%252e/metrics', 400, 'VALIDATION_FAILED'],
  ['GET', '/api/v1/../metrics', 400, 'VALIDATION_FAILED'],
  ['GET', '/metrics', 404, 'NOT_FOUND'],
  ['GET', '/METRICS', 404, 'NOT_FOUND'],
  ['GET', '/readyz', 404, 'NOT_FOUND'],
  ['GET', '/Healthz', 404, 'NOT_FOUND'],
  ['GET', '/%6detrics', 404, 'NOT_FOUND'],
  ['GET', '/metrics;x=1', 400, 'VALIDATION_FAILED'],
  ['POST', '/internal/api-keys/resolve', 404, 'NOT_FOUND'],
  ['POST', '/INTERNAL/api-keys/resolve', 404, 'NOT_FOUND'],
  ['POST', '/api/v1/employees/%2e%2e/%2e%2e/%2e%2e/internal/api-keys/resolve', 400, 'VALIDATION_FAILED'],
];

describe('crafted paths through the gateway', () => {
  let stack: EntriesStack;
  let auth: Record<string, string>;

  beforeAll(async () => {
    stack = await startEntriesStack('gateway-paths');
    const tenant = await stack.tenant('CZ');
    auth = { authorization: `Bearer ${tenant.apiKey}`, 'content-type': 'application/json' };
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const entriesStored = async (): Promise<number> => {
    const res = await send(stack.gateway.url, 'GET', '/api/v1/travel-entries', auth);
    expect(res.status).toBe(200);
    return (JSON.parse(res.text) as { items: unknown[] }).items.length;
  };

  it('the table has at least 30 paths', () => {
    expect(CRAFTED.length).toBeGreaterThanOrEqual(30);
  });

  it.each(CRAFTED)('%s %s → %i %s, and no service is asked anything', async (method, path, status, code) => {
    const before = await Promise.all([servedRequests(stack.employees), servedRequests(stack.entries)]);
    const res = await send(stack.gateway.url, method, path, auth, method === 'POST' ? NEGATIVE_ADVANCE : undefined);
    expect({ status: res.status, code: JSON.parse(res.text).code }).toEqual({ status, code });
    expect(res.contentType).toMatch(/^application\/problem\+json/);
    expect(res.text).not.toMatch(OPERATIONAL);
    // Nothing was forwarded. A refused path is refused before the key lookup too: employees was not asked
    // (only a canonical /api/v1 path naming no resource has its key checked before its 404).
    const [employeesAfter, entriesAfter] = [await servedRequests(stack.employees), await servedRequests(stack.entries)];
    expect(entriesAfter).toBe(before[1]);
    if (status === 400 || !path.startsWith('/api/v1/')) expect(employeesAfter).toBe(before[0]);
  });

  it('nothing was created, and the canonical path refuses the negative advance', async () => {
    expect(await entriesStored()).toBe(0);
    const res = await send(stack.gateway.url, 'POST', '/api/v1/travel-entries', auth, NEGATIVE_ADVANCE);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: { advancePayment: expect.any(Array) },
    });
    expect(await entriesStored()).toBe(0);
  });

  it('forwards the canonical path and the query unchanged, and normalises escapes of plain letters once', async () => {
    const valid = JSON.stringify({ departureDate: '2026-11-02', returnDate: '2026-11-03', advancePayment: 100 });
    expect((await send(stack.gateway.url, 'POST', '/api/v1/travel-entries', auth, valid)).status).toBe(201);
    const listed = await send(stack.gateway.url, 'GET', '/api/v1/%74ravel-entries?pageSize=1&page=1', auth);
    expect(listed.status).toBe(200);
    expect(JSON.parse(listed.text)).toMatchObject({ items: [expect.objectContaining({ advancePayment: 100 })] });
    // The query reaches the service as sent: an unknown parameter is the service's 400, not dropped.
    const unknown = await send(stack.gateway.url, 'GET', '/api/v1/travel-entries?x=..%2f', auth);
    expect(unknown.status).toBe(400);
  });
});

describe('a service called directly with a valid context', () => {
  let stack: EntriesStack;
  let headers: Record<string, string>;

  beforeAll(async () => {
    stack = await startEntriesStack('service-paths');
    const tenant = await stack.tenant('CZ');
    headers = stack.env.callerHeaders({ tenantId: tenant.tenantId, employeeId: tenant.employeeId });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it.each<[string, number, string]>([
    ['/API/V1/travel-entries', 404, 'NOT_FOUND'],
    ['/Api/V1/travel-entries', 404, 'NOT_FOUND'],
    ['/api/v1/Travel-Entries', 404, 'NOT_FOUND'],
    ['/api/v1/travel-entries/', 400, 'VALIDATION_FAILED'],
    ['/api/v1/%74ravel-entries', 400, 'VALIDATION_FAILED'],
    ['/api/v1/travel-entries/%2e%2e/travel-entries', 400, 'VALIDATION_FAILED'],
    ['/api/v1/travel-entries;x=1', 400, 'VALIDATION_FAILED'],
    ['//api/v1/travel-entries', 400, 'VALIDATION_FAILED'],
    ['/Internal/api-keys/resolve', 404, 'NOT_FOUND'],
  ])('refuses POST %s with %i %s and stores nothing', async (path, status, code) => {
    const res = await send(stack.entries.url, 'POST', path, headers, NEGATIVE_ADVANCE);
    expect({ status: res.status, code: JSON.parse(res.text).code }).toEqual({ status, code });
    const list = await send(stack.entries.url, 'GET', '/api/v1/travel-entries', headers);
    expect(JSON.parse(list.text).items).toEqual([]);
  });

  it('refuses a trailing "/" even with a valid body', async () => {
    const valid = JSON.stringify({ departureDate: '2026-11-02', returnDate: '2026-11-03' });
    const res = await send(stack.entries.url, 'POST', '/api/v1/travel-entries/', headers, valid);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toMatchObject({ code: 'VALIDATION_FAILED', errors: { path: [expect.any(String)] } });
    const list = await send(stack.entries.url, 'GET', '/api/v1/travel-entries', headers);
    expect(JSON.parse(list.text).items).toEqual([]);
  });

  it('validates the canonical path against the contract', async () => {
    const res = await send(stack.entries.url, 'POST', '/api/v1/travel-entries', headers, NEGATIVE_ADVANCE);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toMatchObject({ errors: { advancePayment: expect.any(Array) } });
  });

  it('serves /metrics, /readyz and /healthz on its ops port only', async () => {
    for (const path of ['/metrics', '/readyz', '/healthz']) {
      const api = await send(stack.entries.url, 'GET', path, headers);
      expect([path, api.status]).toEqual([path, 404]);
      expect(api.text).not.toMatch(OPERATIONAL);
      const ops = await send(stack.entries.opsUrl, 'GET', path, {});
      expect([path, ops.status]).toEqual([path, 200]);
    }
  });
});
