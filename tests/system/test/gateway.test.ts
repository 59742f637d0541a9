// The gateway as partners meet it: API keys, routing to the owning service, internal headers never
// passed through, rate limits, and the published contract.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { parse } from 'yaml';
import { openApiPath } from '@travel/contracts';
import {
  CONTEXT_HEADER,
  createLogger,
  generateSigningKey,
  mintContext,
  privateKeyFromText,
  type CallerContext,
} from '@travel/platform';
import { start as startEntries } from '@travel/entries/src/service';
import { start as startGateway } from '@travel/gateway/src/service';
import { ApiClient } from '@travel/testkit';
import { startE2eStack, type E2eStack } from './support/stack';

describe('gateway', () => {
  let stack: E2eStack;
  let key: string;
  let entries: Awaited<ReturnType<typeof startEntries>>;
  let gw: { url: string; opsUrl: string; stop(): Promise<void> };
  let tight: { url: string; stop(): Promise<void> };
  /** What `gw` logs, a JSON line each. */
  const logged: Array<Record<string, unknown>> = [];
  const logSink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) logged.push(JSON.parse(line));
      done();
    },
  });

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
    gw = await startGateway({ ...vars, ...upstreams }, createLogger('gateway', 'info', logSink));
    // Without a broker, so it does not share its figures with the other gateways of this file (0221).
    tight = await startGateway({
      ...vars,
      ...upstreams,
      RATE_LIMIT_BURST: '3',
      RATE_LIMIT_PER_MINUTE: '1',
      AMQP_URL: '',
    });
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
    // The operator is told why, the caller is not: a warning with the refused connection's code.
    const requestId = fleet.headers.get('x-request-id');
    const why = logged.find((l) => l.requestId === requestId && l.level === 40);
    expect(why).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      path: '/api/v1/vehicles',
      cause: { code: 'ECONNREFUSED' },
    });
    expect(JSON.stringify(fleet.body)).not.toContain('ECONNREFUSED');
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
      expect(await res.json()).toEqual({ status: 'not ready', checks: { employees: 'ECONNREFUSED', shutdown: 'ok' } });
    } finally {
      await orphan.stop();
    }
  });

  describe('unknown-key floods (docs/decisions/0115, 0116)', () => {
    // Gateways of their own, with small limits and a long key cache, so the counts below are exact.
    const floodLimits = {
      AUTH_FAILURE_BURST: '5',
      AUTH_FAILURES_PER_MINUTE: '1',
      API_KEY_CACHE_MS: '600000',
      RATE_LIMIT_BURST: '5000',
      // Per-address limits alone here (the replica-wide pacing of suspect lookups: key-resolver.test.ts).
      SUSPECT_KEY_LOOKUPS_PER_SECOND: '1000',
      // Each gateway alone with its figures: not replicas sharing them (docs/decisions/0221).
      AMQP_URL: '',
    };
    let flood: { url: string; stop(): Promise<void> };
    let proxied: { url: string; stop(): Promise<void> };
    // Between these gateways and the employees service: counts the key lookups that reach it.
    let counted = 0;
    const counter = createServer((req, res) => {
      if (req.url === '/internal/api-keys/resolve') counted++;
      const onward = request(
        `${stack.employees.url}${req.url}`,
        { method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(onward);
    });
    beforeAll(async () => {
      await new Promise<void>((r) => counter.listen(0, '127.0.0.1', r));
      const counterUrl = `http://127.0.0.1:${(counter.address() as AddressInfo).port}`;
      const vars = { ...process.env, ...stack.env.vars, EMPLOYEES_URL: counterUrl, ENTRIES_URL: entries.url };
      flood = await startGateway({ ...vars, ...floodLimits });
      proxied = await startGateway({ ...vars, ...floodLimits, TRUSTED_PROXY_HOPS: '1' });
    });
    afterAll(async () => {
      await flood?.stop();
      await proxied?.stop();
      counter.closeAllConnections();
      await new Promise((r) => counter.close(r));
    });

    const randomKey = () => `tek_${randomBytes(32).toString('base64url')}`;

    /** GET through a gateway from a chosen loopback source address (the socket's peer the gateway sees). */
    const getFrom = (base: string, from: string, headers: Record<string, string>) =>
      new Promise<{ status: number; retryAfter?: string; body: any }>((resolve, reject) => {
        const req = request(`${base}/api/v1/company`, { localAddress: from, headers }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () =>
            resolve({
              status: res.statusCode!,
              retryAfter: res.headers['retry-after'] as string | undefined,
              body: JSON.parse(text),
            }),
          );
        });
        req.on('error', reject);
        req.end();
      });

    /** Key lookups that have reached the employees service so far. */
    const lookups = async () => counted;

    it('refuses a malformed key with 401 at once: no lookup, and it does not count as a failure', async () => {
      const before = await lookups();
      const malformed = [
        'tek_short',
        'tek_unknownunknownunknownunknownunknownunknown',
        `tek_${'a'.repeat(44)}`,
        `tek_${'a'.repeat(42)}!`,
        `TEK_${'a'.repeat(43)}`,
        `sk_live_${'a'.repeat(43)}`,
        'x'.repeat(4000),
      ];
      for (let round = 0; round < 3; round++)
        for (const key of malformed) {
          const res = await getFrom(flood.url, '127.0.0.10', { authorization: `Bearer ${key}` });
          expect([key.slice(0, 12), res.status, res.body.code]).toEqual([key.slice(0, 12), 401, 'UNAUTHORIZED']);
        }
      expect(await lookups()).toBe(before);
      // 21 malformed keys counted nothing: a well-formed unknown key from the same address is still a 401.
      expect((await getFrom(flood.url, '127.0.0.10', { authorization: `Bearer ${randomKey()}` })).status).toBe(401);
    });

    it('a flood of unknown keys from one address: 429 RATE_LIMITED with Retry-After after the limit, no lookup beyond it; a valid key keeps working from another address without a new lookup', async () => {
      // The valid caller, from 127.0.0.2, before the flood: one lookup, then cached.
      expect((await getFrom(flood.url, '127.0.0.2', { authorization: `Bearer ${key}` })).status).toBe(200);
      const before = await lookups();
      const statuses: number[] = [];
      let last;
      for (let i = 0; i < 40; i++) {
        // X-Forwarded-For changes on every request: the gateway does not believe it (TRUSTED_PROXY_HOPS=0).
        last = await getFrom(flood.url, '127.0.0.3', {
          authorization: `Bearer ${randomKey()}`,
          'x-forwarded-for': `198.51.100.${i}`,
        });
        statuses.push(last.status);
      }
      expect(statuses).toEqual([...Array(5).fill(401), ...Array(35).fill(429)]);
      expect(Number(last!.retryAfter)).toBeGreaterThan(0);
      expect(last!.body).toMatchObject({ code: 'RATE_LIMITED', status: 429, detail: expect.any(String) });
      expect(await lookups()).toBe(before + 5);
      // The limited address is refused before any lookup, whatever the key, valid ones included.
      expect((await getFrom(flood.url, '127.0.0.3', { authorization: `Bearer ${key}` })).status).toBe(429);
      // The valid caller from its own address: served, from the cache (no new lookup).
      const valid = await getFrom(flood.url, '127.0.0.2', { authorization: `Bearer ${key}` });
      expect(valid.status).toBe(200);
      expect(await lookups()).toBe(before + 5);
    });

    it('a limited address is refused before anything else: a crafted path or no key is 429 too, in the documented body', async () => {
      for (let i = 0; i < 5; i++) await getFrom(flood.url, '127.0.0.6', { authorization: `Bearer ${randomKey()}` });
      const before = await lookups();
      const raw = (path: string, headers: Record<string, string>) =>
        new Promise<{ status: number; headers: Record<string, unknown>; body: any }>((resolve, reject) => {
          const req = request(`${flood.url}${path}`, { localAddress: '127.0.0.6', headers }, (res) => {
            let text = '';
            res.on('data', (c: Buffer) => (text += c.toString()));
            res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(text) }));
          });
          req.on('error', reject);
          req.end();
        });
      // From any other address these are 400 (a dot segment) and 401 (no key): the limit answers first.
      for (const [path, headers] of [
        ['/api/v1/travel-entries/%2e%2e/company', { authorization: `Bearer ${key}` }],
        ['/api/v1/company', {}],
      ] as const) {
        const res = await raw(path, headers);
        expect(res.status).toBe(429);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
        expect(res.body).toEqual({
          type: expect.stringMatching(/rate-limited$/),
          title: expect.any(String),
          status: 429,
          code: 'RATE_LIMITED',
          detail: expect.stringContaining('retry in'),
          traceId: res.headers['x-request-id'],
        });
      }
      expect((await getFrom(flood.url, '127.0.0.7', { authorization: `Bearer ${key}` })).status).toBe(200);
      expect(await lookups()).toBe(before);
    });

    it('concurrent unknown keys from one address start no more lookups than the limit', async () => {
      const before = await lookups();
      const answers = await Promise.all(
        Array.from({ length: 30 }, () => getFrom(flood.url, '127.0.0.4', { authorization: `Bearer ${randomKey()}` })),
      );
      expect(answers.filter((a) => a.status === 401)).toHaveLength(5);
      expect(answers.filter((a) => a.status === 429)).toHaveLength(25);
      expect(await lookups()).toBe(before + 5);
    });

    it('behind one trusted proxy, clients are told apart by the address the proxy appended', async () => {
      // Both clients reach the gateway through the same proxy (socket peer 127.0.0.5); client A also
      // wrote an X-Forwarded-For of its own, which sits left of what the proxy appended and is ignored.
      const through = (client: string, key: string, forged = '') =>
        getFrom(proxied.url, '127.0.0.5', {
          authorization: `Bearer ${key}`,
          'x-forwarded-for': forged ? `${forged}, ${client}` : client,
        });
      const a: number[] = [];
      for (let i = 0; i < 8; i++) a.push((await through('203.0.113.1', randomKey(), `192.0.2.${i}`)).status);
      expect(a).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
      expect((await through('203.0.113.2', randomKey())).status).toBe(401);
      expect((await through('203.0.113.2', key)).status).toBe(200);
    });
  });
});
