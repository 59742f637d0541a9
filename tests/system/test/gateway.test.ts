// The gateway as partners meet it: API keys, routing to the owning service, internal headers never
// passed through, rate limits, and the published contract.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { openApiPath } from '@travel/contracts';
import {
  CONTEXT_HEADER,
  generateSigningKey,
  mintContext,
  privateKeyFromText,
  type CallerContext,
} from '@travel/platform';
import { start as startEntries } from '@travel/entries/src/service';
import { startGateway } from '@travel/gateway/src/service';
import { ApiClient } from '@travel/testkit';
import { startE2eStack, type E2eStack } from './support/stack';

describe('gateway', () => {
  let stack: E2eStack;
  let key: string;
  let entries: Awaited<ReturnType<typeof startEntries>>;
  let gw: { url: string; opsUrl: string; stop(): Promise<void> };
  let tight: { url: string; stop(): Promise<void> };

  beforeAll(async () => {
    stack = await startE2eStack('gateway');
    key = (await stack.tenant('SI')).apiKey;
    const vars = { ...process.env, ...stack.env.vars };
    entries = await startEntries(vars);
    const upstreams = {
      EMPLOYEES_URL: stack.employees.url,
      WEBHOOK_DISPATCHER_URL: stack.dispatcher.url,
      ENTRIES_URL: entries.url,
      FLEET_URL: 'http://127.0.0.1:9',
    };
    gw = await startGateway({ ...vars, ...upstreams });
    tight = await startGateway({ ...vars, ...upstreams, RATE_LIMIT_BURST: '3', RATE_LIMIT_PER_MINUTE: '1' });
  });
  afterAll(async () => {
    await tight?.stop();
    await gw?.stop();
    await entries?.stop();
    await stack?.stop();
  });

  const raw = (path: string, headers: Record<string, string> = {}) => fetch(`${gw.url}${path}`, { headers });

  it('accepts the key as a bearer token or in X-Api-Key, and refuses missing or unknown keys with 401', async () => {
    expect((await raw('/api/v1/company', { authorization: `Bearer ${key}` })).status).toBe(200);
    expect((await raw('/api/v1/company', { 'x-api-key': key })).status).toBe(200);
    const refused: Record<string, string>[] = [
      {},
      { authorization: 'Bearer tek_unknownunknownunknownunknownunknownunknown' },
      { authorization: `Basic ${key}` },
      { 'x-api-key': '' },
    ];
    for (const headers of refused) {
      const res = await raw('/api/v1/company', headers);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    }
  });

  it('never lets a client-supplied internal context through', async () => {
    const someoneElse: CallerContext = {
      kind: 'caller',
      tenantId: 'someone-else',
      market: 'HR',
      baseCurrency: 'EUR',
      employeeId: 'x',
      apiKeyId: 'x',
      permissions: ['ManageEmployees'],
      requestId: 'x',
    };
    // Signed with the gateway's own key (stolen), and with a key of the attacker's.
    const forged = [
      mintContext(someoneElse, stack.env.signingKey),
      mintContext(someoneElse, privateKeyFromText(generateSigningKey().privateKey)),
    ];
    for (const context of forged) {
      // Even a correctly signed context is ignored without a key...
      expect((await raw('/api/v1/company', { [CONTEXT_HEADER]: context })).status).toBe(401);
      // ...and replaced by the gateway's own with one: the caller sees its own company, not "someone-else".
      const res = await raw('/api/v1/company', { authorization: `Bearer ${key}`, [CONTEXT_HEADER]: context });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { market: string }).market).toBe('SI');
    }
  });

  it('routes each resource to its owner: the owner answers, 503 when the owner is down, 404 for unknown ones', async () => {
    const api = new ApiClient(gw.url, key);
    const entriesRes = await api.get('/api/v1/approval-workflow');
    expect(entriesRes.status).toBe(200);
    expect(entriesRes.body).toMatchObject({ settlementSteps: [], tripApprovalSteps: [] });
    const fleet = await api.get('/api/v1/vehicles');
    expect(fleet.status).toBe(503);
    expect(fleet.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    const unknown = await api.get('/api/v1/spaceships');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'NOT_FOUND' });
  });

  describe('a known path with a method it does not have: 405 METHOD_NOT_ALLOWED with Allow, from the contract', () => {
    const api = () => new ApiClient(gw.url, key);

    it.each([
      ['PATCH', '/api/v1/employees/0b3e0f0e-0000-4000-8000-000000000001', 'GET, PUT'],
      ['DELETE', '/api/v1/employees/0b3e0f0e-0000-4000-8000-000000000001', 'GET, PUT'],
      ['PUT', '/api/v1/employees', 'GET, POST'],
      ['DELETE', '/api/v1/company', 'GET'],
      ['PUT', '/api/v1/api-keys/0b3e0f0e-0000-4000-8000-000000000001', 'DELETE'],
      ['DELETE', '/api/v1/webhooks/0b3e0f0e-0000-4000-8000-000000000001/deliveries', 'GET'],
      ['DELETE', '/api/v1/travel-entries', 'GET, POST'],
      ['GET', '/api/v1/travel-entries/0b3e0f0e-0000-4000-8000-000000000001/submit', 'POST'],
      ['POST', '/api/v1/payouts/ready', 'GET'],
      ['DELETE', '/api/v1/reference/countries', 'GET, PUT'],
    ])('%s %s → 405, Allow: %s', async (method, path, allow) => {
      const res = await api().request(method, path, method === 'GET' || method === 'DELETE' ? undefined : {});
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe(allow);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body).toEqual({
        type: 'https://docs.travel-expense.example/errors/method-not-allowed',
        title: expect.any(String),
        status: 405,
        code: 'METHOD_NOT_ALLOWED',
        detail: expect.stringContaining(method),
        traceId: expect.any(String),
      });
    });

    it('HEAD is a method like any other: 405 where the contract does not list it', async () => {
      const res = await api().request('HEAD', '/api/v1/company');
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET');
    });

    it('still routes the methods a path has: 200 from the entries and the organization contexts', async () => {
      expect((await api().get('/api/v1/approval-workflow')).status).toBe(200);
      expect((await api().get('/api/v1/company')).status).toBe(200);
    });

    it('keeps 404 for unknown paths and 401 before anything else', async () => {
      expect((await api().request('PATCH', '/api/v1/spaceships')).status).toBe(404);
      expect((await api().request('PATCH', '/api/v1/employees/x/y/z')).status).toBe(404);
      const anonymous = await new ApiClient(gw.url).request('DELETE', '/api/v1/company');
      expect(anonymous.status).toBe(401);
    });
  });

  it('carries a request id through, or makes one', async () => {
    const given = await raw('/api/v1/company', { authorization: `Bearer ${key}`, 'x-request-id': 'partner-req-42' });
    expect(given.headers.get('x-request-id')).toBe('partner-req-42');
    const made = await raw('/api/v1/company', { authorization: `Bearer ${key}` });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('limits each key: 429 RATE_LIMITED with Retry-After once the burst is spent', async () => {
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 5; i++) {
      last = await fetch(`${tight.url}/api/v1/company`, { headers: { authorization: `Bearer ${key}` } });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await last!.json()).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
  });

  it('publishes the contract at /api-reference/ as JSON, YAML and a readable page', async () => {
    const contract = parse(readFileSync(openApiPath(), 'utf8'));
    const json = await raw('/api-reference/openapi.json');
    expect(json.status).toBe(200);
    expect(await json.json()).toEqual(contract);
    const yaml = await raw('/api-reference/openapi.yaml');
    expect(parse(await yaml.text())).toEqual(contract);
    const page = await raw('/api-reference/');
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    // The page and every file it loads come from the gateway (what the browser renders:
    // api-reference-page.test.ts, in headless Chromium).
    const html = await page.text();
    const loaded = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(loaded).toEqual(expect.arrayContaining(['assets/swagger-ui-bundle.js', 'assets/swagger-ui.css', 'init.js']));
    for (const file of loaded) {
      const res = await raw(`/api-reference/${file}`);
      await res.arrayBuffer(); // read to the end: an unread body keeps the connection (and stop()) open
      expect([file, res.status]).toEqual([file, 200]);
    }
    expect((await raw('/api-reference/assets/index.html')).status).toBe(404);
  });

  it('serves health and metrics without a key on its ops port, and not on the API port', async () => {
    expect((await raw('/api/v1/company', { authorization: `Bearer ${key}` })).status).toBe(200);
    const ops = (path: string) => fetch(`${gw.opsUrl}${path}`);
    expect((await ops('/healthz')).status).toBe(200);
    expect((await ops('/readyz')).status).toBe(200);
    const metrics = await (await ops('/metrics')).text();
    expect(metrics).toMatch(/http_requests_total\{[^}]*service="gateway"/);
    expect(metrics).toMatch(/http_requests_total\{[^}]*route="\/api\/v1"[^}]*status="200"/);
    for (const path of ['/healthz', '/readyz', '/metrics']) {
      const res = await raw(path);
      expect([path, res.status]).toEqual([path, 404]);
      expect(await res.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
  });

  it('is not ready while employees accepts no connections', async () => {
    const orphan = await startGateway({ ...process.env, ...stack.env.vars, EMPLOYEES_URL: 'http://127.0.0.1:9' });
    try {
      const res = await fetch(`${orphan.opsUrl}/readyz`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ status: 'not ready', checks: { employees: 'ECONNREFUSED' } });
    } finally {
      await orphan.stop();
    }
  });
});
