// Exchange rates through the gateway, for a tenant of each market: the market decides the provider,
// weekends and holidays take the latest earlier publication, and a missing rate is
// 400 EXCHANGE_RATE_UNAVAILABLE with field-keyed errors (SPEC "Exchange rate (reference)", "Errors").
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Market, RunningService } from '@travel/platform';
import { start as startReferenceFx } from '@travel/reference-fx/src/service';
import { repoRoot } from '@travel/testkit';
import { startE2eStack, type E2eStack } from './support/stack';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.once('error', reject);
  });

describe('exchange rates through the gateway', () => {
  let stack: E2eStack;
  let fx: RunningService;

  beforeAll(async () => {
    const port = await freePort();
    stack = await startE2eStack('fx-gateway', { REFERENCE_FX_URL: `http://127.0.0.1:${port}` });
    fx = await startReferenceFx({
      ...process.env,
      ...stack.env.vars,
      PORT: String(port),
      FX_SEED_DIR: join(repoRoot(), 'services', 'reference-fx', 'test', 'fixtures', 'feeds'),
    });
  });
  afterAll(async () => {
    await fx?.stop();
    await stack?.stop();
  });

  it.each([
    ['HR', 'HNB', 'EUR', 'ForeignPerBase', 'USD', 1.159568, 1],
    ['SI', 'ECB', 'EUR', 'ForeignPerBase', 'USD', 1.1596, 1],
    ['SK', 'ECB', 'EUR', 'ForeignPerBase', 'USD', 1.1596, 1],
    ['CZ', 'CNB', 'CZK', 'BasePerForeign', 'JPY', 13.744, 100],
    ['PL', 'NBP', 'PLN', 'BasePerForeign', 'USD', 3.6672, 1],
  ] as const)(
    '%s tenant: %s rates, base %s, %s; Saturday answered with Friday’s rate',
    async (market, source, baseCurrency, direction, currency, rate, units) => {
      const t = await stack.tenant(market as Market);
      const res = await t.api.get(`/api/v1/reference/exchange-rates?currency=${currency}&date=2026-11-21`);
      expect(res.status).toBe(200);
      expect(res.body.items).toHaveLength(1);
      expect(res.body.items[0]).toMatchObject({
        currency,
        rate,
        units,
        source,
        baseCurrency,
        direction,
        date: '2026-11-20',
        requestedDate: '2026-11-21',
      });
    },
  );

  it.each([
    ['CZ', 'EUR', '2026-11-17', '2026-11-16'],
    ['PL', 'EUR', '2026-11-11', '2026-11-10'],
    ['HR', 'USD', '2026-11-18', '2026-11-17'],
  ] as const)('%s %s on the public holiday %s: the rate of %s applies', async (market, currency, date, from) => {
    const t = await stack.tenant(market);
    const res = await t.api.get(`/api/v1/reference/exchange-rates?currency=${currency}&date=${date}`);
    expect(res.status).toBe(200);
    expect(res.body.items[0]).toMatchObject({ date: from, requestedDate: date });
  });

  it('no rate at all: 400 EXCHANGE_RATE_UNAVAILABLE with errors keyed by field', async () => {
    const t = await stack.tenant('HR');
    const res = await t.api.get('/api/v1/reference/exchange-rates?currency=RSD&date=2026-11-20');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'EXCHANGE_RATE_UNAVAILABLE', status: 400 });
    expect(Object.keys(res.body.errors)).toEqual(['currency']);
    const early = await t.api.get('/api/v1/reference/exchange-rates?date=2020-01-01');
    expect(early.status).toBe(400);
    expect(early.body).toMatchObject({ code: 'EXCHANGE_RATE_UNAVAILABLE', errors: { date: [expect.any(String)] } });
  });

  it('every rate of the day for the caller’s market, paged', async () => {
    const t = await stack.tenant('SK');
    const res = await t.api.get('/api/v1/reference/exchange-rates?date=2026-11-20&pageSize=100');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ page: 1, pageSize: 100, total: 29, totalPages: 1 });
    expect(new Set(res.body.items.map((r: { source: string }) => r.source))).toEqual(new Set(['ECB']));
  });

  it('needs an API key', async () => {
    const res = await fetch(`${stack.gateway.url}/api/v1/reference/exchange-rates?currency=USD`);
    expect(res.status).toBe(401);
  });
});
