// One request pipeline per process (docs/decisions/0232): whichever path answers a GET, the remembered
// reads before express or express after they missed, the request is id'd, verified, counted and logged once.
import type { IncomingMessage } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { CONTEXT_HEADER, ContextVerifier, mintContext, type CallerContext, type ContextTrust } from '../context';
import { generateSigningKey, keyringText, parseKeyring, privateKeyFromText } from '../context-keys';
import { createLogger } from '../logger';
import type { CollectionState, CollectionVersions } from '../mongo/collection-versions';
import { Metrics } from '../observability/metrics';
import { apiRouter, createHttpListener, listen, route } from './app';
import { ConditionalGets } from './conditional-read';
import { closeServer } from './drain';
import { requirePermission } from './request-context';
import { requestHasBody } from './request-pipeline';

const gateway = generateSigningKey();
const GATEWAY_KEY = privateKeyFromText(gateway.privateKey);
const TRUST: ContextTrust = {
  audience: 'employees',
  keyring: parseKeyring(keyringText({ gateway: gateway.publicKey })),
};
/** How long one read of a collection's version takes in these tests. */
const VERSION_READ_MS = 150;

describe('one request pipeline: the remembered reads and express', () => {
  let server: Server;
  let base: string;
  let metrics: Metrics;
  let version: number;
  let slowVersions: boolean;
  let handled: number;
  let tenants = 0;
  let reader: CallerContext;
  const lines: Array<{ msg: string; requestId?: string; route?: string; status?: number }> = [];

  beforeAll(async () => {
    const versions = {
      state: async (): Promise<CollectionState> => {
        if (slowVersions) await new Promise((resolve) => setTimeout(resolve, VERSION_READ_MS));
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
        await reads.answer(req, res, caller, [{ collection: 'companies' }], async () => ({ name: `v${version}` }));
      }),
    );
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as never);
        done();
      },
    });
    metrics = new Metrics('employees');
    const logger = createLogger('employees', 'info', sink);
    server = await listen(createHttpListener({ logger, metrics, api, reads, contextTrust: TRUST }), 0, '127.0.0.1');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => closeServer(server));
  beforeEach(() => {
    version = 1;
    slowVersions = false;
    handled = 0;
    lines.length = 0;
    reader = {
      kind: 'caller',
      tenantId: `pipeline-${++tenants}`,
      market: 'CZ',
      baseCurrency: 'CZK',
      employeeId: 'e-1',
      apiKeyId: 'k-1',
      permissions: ['ManageCompanyData'],
      requestId: 'minted',
    };
  });
  afterEach(() => jest.restoreAllMocks());

  const get = (requestId: string) =>
    fetch(`${base}/api/v1/company`, {
      headers: { 'x-request-id': requestId, [CONTEXT_HEADER]: mintContext(reader, GATEWAY_KEY) },
    });
  const metric = async (name: string) =>
    (await metrics.registry.getSingleMetric(name)!.get()).values.filter(
      (v) => v.labels.route === '/api/v1/company' && v.labels.status === '200',
    );
  const served = async () => (await metric('http_requests_total')).reduce((sum, v) => sum + v.value, 0);
  const secondsServed = async () =>
    (await metric('http_request_duration_seconds'))
      .filter((v) => (v as { metricName?: string }).metricName === 'http_request_duration_seconds_sum')
      .reduce((sum, v) => sum + v.value, 0);
  const requestLines = (requestId: string) => lines.filter((l) => l.msg === 'request' && l.requestId === requestId);

  it('a miss of the remembered reads verifies the context once, and a hit once', async () => {
    const verify = jest.spyOn(ContextVerifier.prototype, 'verify');
    // The first GET of this tenant: nothing remembered, the fast path checks the context and hands it on.
    expect((await get('miss-1')).status).toBe(200);
    expect([handled, verify.mock.calls.length]).toEqual([1, 1]);
    // The same GET again: answered before express.
    expect((await get('hit-1')).status).toBe(200);
    expect([handled, verify.mock.calls.length]).toEqual([1, 2]);
  });

  it('a hit and a miss are each counted once and logged once, under the id they answered with', async () => {
    const before = await served();
    const miss = await get('miss-2');
    const hit = await get('hit-2');
    expect(handled).toBe(1);
    expect([miss.headers.get('x-request-id'), hit.headers.get('x-request-id')]).toEqual(['miss-2', 'hit-2']);
    expect(await served()).toBe(before + 2);
    expect(requestLines('miss-2')).toEqual([expect.objectContaining({ route: '/api/v1/company', status: 200 })]);
    expect(requestLines('hit-2')).toEqual([expect.objectContaining({ route: '/api/v1/company', status: 200 })]);
  });

  it('a miss is timed from its arrival: the fast path read of the versions counts too', async () => {
    await get('first-3');
    // A write moves the version: the fast path reads it (one read), finds no body for it and misses; the
    // whole path reads it again (a second read) and produces. Two reads of 150 ms: at least 0.3 s.
    version = 2;
    slowVersions = true;
    const secondsBefore = await secondsServed();
    expect((await get('miss-3')).status).toBe(200);
    expect(handled).toBe(2);
    // Less a little: a timer counts from the event loop's cached time and can fire a few ms early. One
    // read would be 0.15 s.
    expect((await secondsServed()) - secondsBefore).toBeGreaterThanOrEqual((2 * VERSION_READ_MS - 20) / 1000);
  });
});

describe('requestHasBody: one rule for the remembered reads and the gateway', () => {
  const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;
  it.each([
    ['no length, not chunked', {}, false],
    ['a length of 0', { 'content-length': '0' }, false],
    ['a length of 12', { 'content-length': '12' }, true],
    ['chunked', { 'transfer-encoding': 'chunked' }, true],
  ])('%s', (_name, headers, expected) => {
    expect(requestHasBody(request(headers))).toBe(expected);
  });
});
