// GETs answered from what was remembered, before express (docs/decisions/0182): the same answer as the
// whole path, without its router, validator or handler; everything else still goes the whole path.
import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CONTEXT_HEADER, mintContext, type CallerContext, type ContextTrust } from '../context';
import { generateSigningKey, keyringText, parseKeyring, privateKeyFromText } from '../context-keys';
import { createLogger } from '../logger';
import type { CollectionState, CollectionVersions } from '../mongo/collection-versions';
import { Metrics } from '../observability/metrics';
import { apiRouter, createHttpListener, listen, route } from './app';
import { closeServer } from './drain';
import { ConditionalGets } from './conditional-read';
import { requirePermission } from './request-context';

const gateway = generateSigningKey();
const GATEWAY_KEY = privateKeyFromText(gateway.privateKey);
const TRUST: ContextTrust = {
  audience: 'employees',
  keyring: parseKeyring(keyringText({ gateway: gateway.publicKey })),
};
const someone: CallerContext = {
  kind: 'caller',
  tenantId: 't-0',
  market: 'CZ',
  baseCurrency: 'CZK',
  employeeId: 'e-1',
  apiKeyId: 'k-1',
  permissions: ['ManageCompanyData'],
  requestId: 'r-1',
};

describe('remembered GETs before express', () => {
  let server: Server;
  let base: string;
  let metrics: Metrics;
  let version: number;
  let storeDown: boolean;
  /** Runs of the route's handler: the whole path. */
  let handled: number;
  let name: string;
  /** A tenant of each test's own: nothing one test answered is remembered for the next. */
  let reader: CallerContext;
  let tenants = 0;

  beforeAll(async () => {
    const versions = {
      state: async (): Promise<CollectionState> => {
        if (storeDown) throw new Error('store down');
        return { epoch: 'e', version, settled: true, pending: 0 };
      },
    } as unknown as CollectionVersions;
    const reads = new ConditionalGets(versions);
    const api = apiRouter();
    api.get(
      '/api/v1/company',
      route(async (req, res) => {
        handled += 1;
        const caller = requirePermission(req, 'ManageCompanyData');
        await reads.answer(req, res, caller, [{ collection: 'companies' }], async () => ({ name }));
      }),
    );
    metrics = new Metrics('employees');
    const logger = createLogger('employees', 'silent');
    server = await listen(createHttpListener({ logger, metrics, api, reads, contextTrust: TRUST }), 0, '127.0.0.1');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => closeServer(server));
  beforeEach(() => {
    version = 1;
    storeDown = false;
    handled = 0;
    name = 'Acme';
    reader = { ...someone, tenantId: `t-${++tenants}` };
  });

  const get = (path: string, caller: CallerContext | null = reader, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, {
      headers: { ...headers, ...(caller ? { [CONTEXT_HEADER]: mintContext(caller, GATEWAY_KEY) } : {}) },
    });
  const shown = (r: Response) => {
    const { date: _date, 'x-request-id': _id, ...headers } = Object.fromEntries(r.headers);
    return headers;
  };
  const served = async (route: string, status: string) =>
    ((await metrics.registry.getSingleMetric('http_requests_total')!.get()).values.find(
      (v) => v.labels.route === route && v.labels.status === status,
    )?.value as number | undefined) ?? 0;

  it('answers the same GET again with the same body and headers, without the handler', async () => {
    const whole = await get('/api/v1/company', reader, { 'x-request-id': 'first-1' });
    expect(whole.status).toBe(200);
    const before = await served('/api/v1/company', '200');
    const again = await get('/api/v1/company', reader, { 'x-request-id': 'again-1' });
    expect(handled).toBe(1);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ name: 'Acme' });
    expect(shown(again)).toEqual(shown(whole));
    expect(shown(again)).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'private, no-cache',
      vary: 'Authorization, X-Api-Key',
    });
    expect([whole.headers.get('x-request-id'), again.headers.get('x-request-id')]).toEqual(['first-1', 'again-1']);
    // Counted under the route's template, as the whole path counts it.
    expect(await served('/api/v1/company', '200')).toBe(before + 1);
  });

  it('answers 304 for the current ETag, and produces again once the version moved', async () => {
    const tag = (await get('/api/v1/company')).headers.get('etag')!;
    const notModified = await get('/api/v1/company', reader, { 'if-none-match': tag });
    expect([notModified.status, notModified.headers.get('etag'), handled]).toEqual([304, tag, 1]);
    version = 2;
    name = 'Acme 2';
    const moved = await get('/api/v1/company', reader, { 'if-none-match': tag });
    expect([moved.status, await moved.json(), handled]).toEqual([200, { name: 'Acme 2' }, 2]);
    expect(moved.headers.get('etag')).not.toBe(tag);
    expect((await get('/api/v1/company')).status).toBe(200);
    expect(handled).toBe(2);
  });

  it('a caller of another view, a refused caller, no context or another query go the whole path', async () => {
    await get('/api/v1/company');
    expect(handled).toBe(1);
    const other = { ...reader, employeeId: 'e-2' };
    expect((await get('/api/v1/company', other)).status).toBe(200);
    expect(handled).toBe(2);
    const refused = { ...reader, permissions: [] };
    for (let i = 0; i < 2; i++) expect((await get('/api/v1/company', refused)).status).toBe(403);
    expect(handled).toBe(4);
    expect((await get('/api/v1/company', null)).status).toBe(401);
    expect((await get('/api/v1/company', { ...reader, tenantId: `${reader.tenantId}-other` })).status).toBe(200);
    // A query the contract does not declare: refused by the validator, never remembered.
    for (let i = 0; i < 2; i++) expect((await get('/api/v1/company?x=1')).status).toBe(400);
    expect(handled).toBe(5);
  });

  it('the versions unreadable: the whole path answers, and says why', async () => {
    await get('/api/v1/company');
    storeDown = true;
    const down = await get('/api/v1/company');
    expect(down.status).toBeGreaterThanOrEqual(500);
    expect(handled).toBe(2);
  });

  it('a GET with a body goes the whole path', async () => {
    await get('/api/v1/company');
    const status = await new Promise<number>((resolve, reject) => {
      const body = '{"name":"x"}';
      const headers = {
        [CONTEXT_HEADER]: mintContext(reader, GATEWAY_KEY),
        'content-type': 'application/json',
        'content-length': String(body.length),
      };
      request(`${base}/api/v1/company`, { method: 'GET', headers }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      })
        .on('error', reject)
        .end(body);
    });
    expect([status, handled]).toEqual([200, 2]);
  });
});
