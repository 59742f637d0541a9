// A service behind the gateway trusts only the context the gateway signs (and, on its internal routes, the
// contexts its callers address to it: docs/decisions/0100), and answers bad input with the documented
// error body, never a 500.
import { createHmac } from 'node:crypto';
import {
  CONTEXT_HEADER,
  generateSigningKey,
  keyringText,
  mintContext,
  privateKeyFromText,
  publicKeyTextOf,
  type CallerContext,
  type ServiceContext,
} from '@travel/platform';
import { createTestEnv, type TestEnv } from '@travel/testkit';
import { start as startEmployees } from '../src/service';

type Running = Awaited<ReturnType<typeof startEmployees>>;

const PROBLEM_KEYS = ['code', 'status', 'title', 'traceId', 'type'];

describe('employees service boundary', () => {
  let env: TestEnv;
  let service: Running;
  const tenantId = '11111111-1111-4111-8111-111111111111';
  // Keys of their own for entries (one of employees' callers) and the webhook-dispatcher (which calls nobody).
  const entries = generateSigningKey();
  const entriesKey = privateKeyFromText(entries.privateKey);
  const dispatcherKey = privateKeyFromText(generateSigningKey().privateKey);

  beforeAll(async () => {
    env = await createTestEnv('boundary');
    // employees as deployed: it trusts the gateway and its callers, not the dispatcher.
    const trusted = keyringText({ gateway: publicKeyTextOf(env.signingKey), entries: entries.publicKey });
    service = await startEmployees({ ...process.env, ...env.vars, INTERNAL_TRUSTED_KEYS: trusted });
  });
  afterAll(async () => {
    await service?.stop();
    await env?.cleanup();
  });

  const call = (path: string, init: RequestInit = {}) => fetch(`${service.url}${path}`, init);
  const asCaller = (permissions: string[] = ['ManageEmployees']) => env.callerHeaders({ tenantId, permissions });

  async function expectProblem(res: Response, status: number, code: string) {
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const body: any = await res.json();
    for (const key of PROBLEM_KEYS) expect(body).toHaveProperty(key);
    expect(body).toMatchObject({ status, code });
    return body;
  }

  it('refuses a request without an internal context', async () => {
    await expectProblem(await call('/api/v1/employees'), 401, 'UNAUTHORIZED');
  });

  const caller: CallerContext = {
    kind: 'caller',
    tenantId,
    market: 'CZ',
    baseCurrency: 'CZK',
    employeeId: 'e',
    apiKeyId: 'k',
    permissions: ['ManageEmployees'],
    requestId: 'r',
  };
  const fromEntries = (audience: string): ServiceContext => ({
    kind: 'service',
    service: 'entries',
    audience,
    requestId: 'r',
  });
  const withContext = (token: string) => ({ headers: { [CONTEXT_HEADER]: token } });
  const publicApi = (token: string) => call('/api/v1/employees', withContext(token));
  const internalApi = (token: string) =>
    call(`/internal/tenants/${tenantId}/employees/${tenantId}`, withContext(token));

  it('refuses a context signed with another key, an expired one, and a service context on the public API', async () => {
    const forged = mintContext(caller, privateKeyFromText(generateSigningKey().privateKey));
    await expectProblem(await publicApi(forged), 401, 'UNAUTHORIZED');
    const expired = mintContext(caller, env.signingKey, 60, Date.now() - 120_000);
    await expectProblem(await publicApi(expired), 401, 'UNAUTHORIZED');
    await expectProblem(await publicApi(mintContext(fromEntries('employees'), entriesKey)), 401, 'UNAUTHORIZED');
    // ...while the gateway's own context passes.
    expect((await publicApi(mintContext(caller, env.signingKey))).status).toBe(200);
  });

  it('refuses a caller context signed by a service key, even the key of a trusted caller', async () => {
    await expectProblem(await publicApi(mintContext(caller, entriesKey)), 401, 'UNAUTHORIZED');
    await expectProblem(await publicApi(mintContext(caller, dispatcherKey)), 401, 'UNAUTHORIZED');
  });

  it('accepts a service context of a trusted caller only when it is addressed to employees', async () => {
    await expectProblem(await internalApi(mintContext(fromEntries('fleet'), entriesKey)), 401, 'UNAUTHORIZED');
    await expectProblem(await internalApi(mintContext(fromEntries('payouts'), entriesKey)), 401, 'UNAUTHORIZED');
    // Addressed to employees, the same caller passes (404: no such employee).
    await expectProblem(await internalApi(mintContext(fromEntries('employees'), entriesKey)), 404, 'NOT_FOUND');
  });

  it('a compromised dispatcher can mint no context employees accepts, whoever it claims to be', async () => {
    const asItself: ServiceContext = { ...fromEntries('employees'), service: 'webhook-dispatcher' };
    await expectProblem(await internalApi(mintContext(asItself, dispatcherKey)), 401, 'UNAUTHORIZED');
    await expectProblem(await internalApi(mintContext(fromEntries('employees'), dispatcherKey)), 401, 'UNAUTHORIZED');
    await expectProblem(await publicApi(mintContext(caller, dispatcherKey)), 401, 'UNAUTHORIZED');
  });

  it('refuses a context signed with the old shared HMAC secret (INTERNAL_CONTEXT_SECRET)', async () => {
    const secret = 'the-shared-internal-context-secret-of-every-process';
    const hmacToken = (ctx: unknown) => {
      const payload = Buffer.from(JSON.stringify({ ctx, exp: Math.floor(Date.now() / 1000) + 60 })).toString(
        'base64url',
      );
      return `${payload}.${createHmac('sha256', secret).update(payload).digest('base64url')}`;
    };
    await expectProblem(await publicApi(hmacToken(caller)), 401, 'UNAUTHORIZED');
    await expectProblem(await internalApi(hmacToken(fromEntries('employees'))), 401, 'UNAUTHORIZED');
  });

  it('refuses a caller context on internal routes', async () => {
    await expectProblem(
      await call('/internal/api-keys/resolve', { method: 'POST', headers: asCaller(), body: '{"key":"x"}' }),
      401,
      'UNAUTHORIZED',
    );
  });

  it('answers malformed JSON with 400 VALIDATION_FAILED', async () => {
    const body = await expectProblem(
      await call('/api/v1/employees', { method: 'POST', headers: asCaller(), body: '{"firstName": "Ana",' }),
      400,
      'VALIDATION_FAILED',
    );
    expect(body.errors).toEqual({ body: ['is not valid JSON'] });
  });

  it('keys contract violations by field', async () => {
    const res = await call('/api/v1/employees', {
      method: 'POST',
      headers: asCaller(),
      body: JSON.stringify({
        firstName: '',
        lastName: 'X',
        email: 'not-an-email',
        residency: 'Martian',
        costCenterIds: ['nope'],
        surprise: 1,
      }),
    });
    const body = await expectProblem(res, 400, 'VALIDATION_FAILED');
    expect(Object.keys(body.errors)).toEqual(
      expect.arrayContaining(['firstName', 'email', 'residency', 'costCenterIds[0]']),
    );
  });

  it.each([
    ['a JSON array', '[]'],
    ['a JSON string', '"hello"'],
    ['null', 'null'],
    ['a huge number where a string belongs', '{"firstName": 1e400, "lastName": "x"}'],
  ])('answers %s as a body with 400, never 500', async (_what, raw) => {
    const res = await call('/api/v1/employees', { method: 'POST', headers: asCaller(), body: raw });
    await expectProblem(res, 400, 'VALIDATION_FAILED');
  });

  it('answers an oversized body with 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await call('/api/v1/employees', {
      method: 'POST',
      headers: asCaller(),
      body: JSON.stringify({ firstName: 'x'.repeat(2_000_000), lastName: 'y' }),
    });
    await expectProblem(res, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('answers out-of-range paging with 400, and an unknown route with 404', async () => {
    await expectProblem(await call('/api/v1/employees?page=0', { headers: asCaller() }), 400, 'VALIDATION_FAILED');
    await expectProblem(
      await call('/api/v1/employees?pageSize=101', { headers: asCaller() }),
      400,
      'VALIDATION_FAILED',
    );
    await expectProblem(await call('/api/v1/employees/not-a-uuid', { headers: asCaller() }), 400, 'VALIDATION_FAILED');
    await expectProblem(await call('/api/v1/nothing-here', { headers: asCaller() }), 404, 'NOT_FOUND');
  });

  it('answers a method the path does not have with 405 METHOD_NOT_ALLOWED and Allow, even when reached directly', async () => {
    const res = await call('/api/v1/company', { method: 'DELETE', headers: asCaller() });
    await expectProblem(res, 405, 'METHOD_NOT_ALLOWED');
    expect(res.headers.get('allow')).toMatch(/GET/);
  });

  it('requires ManageEmployees to create, and hides other tenants (404)', async () => {
    const payload = JSON.stringify({ firstName: 'Ana', lastName: 'Horvat' });
    await expectProblem(
      await call('/api/v1/employees', { method: 'POST', headers: asCaller([]), body: payload }),
      403,
      'FORBIDDEN',
    );
    const created = await call('/api/v1/employees', { method: 'POST', headers: asCaller(), body: payload });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect((await call(`/api/v1/employees/${id}`, { headers: asCaller([]) })).status).toBe(200);
    const other = env.callerHeaders({ tenantId: '22222222-2222-4222-8222-222222222222' });
    await expectProblem(await call(`/api/v1/employees/${id}`, { headers: other }), 404, 'NOT_FOUND');
  });
});
