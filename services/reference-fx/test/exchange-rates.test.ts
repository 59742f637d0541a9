// reference-fx on real infrastructure: recorded feeds seeded at start, rates by market with the
// weekend/holiday fallback, the internal conversion API (both directions, the manual-rate rule), and
// feeds refused whole. Called directly with gateway-minted contexts; tests/system goes through the gateway.
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { type Market } from '@travel/platform';
import { createTestEnv, eventually, type TestEnv } from '@travel/testkit';
import { AppError, internalTransports } from '@travel/platform';
import { ReferenceFxClient } from '@travel/contracts';
import { decimal } from '@travel/money';
import { FxImporter } from '../src/app/fx-import';
import { registerFxModels } from '../src/infra/fx-models';
import { FxStore } from '../src/infra/fx-store';
import { start } from '../src/service';

type Running = Awaited<ReturnType<typeof start>>;
const FIXTURES = join(__dirname, 'fixtures');
const BASE: Record<Market, string> = { HR: 'EUR', SI: 'EUR', SK: 'EUR', CZ: 'CZK', PL: 'PLN' };

describe('reference-fx exchange rates', () => {
  let env: TestEnv;
  let service: Running;

  beforeAll(async () => {
    env = await createTestEnv('fx-rates');
    service = await start({ ...process.env, ...env.vars, FX_SEED_DIR: join(FIXTURES, 'feeds') });
  });
  afterAll(async () => {
    await service?.stop();
    await env?.cleanup();
  });

  const rates = async (market: Market, query: string) => {
    const res = await fetch(`${service.url}/api/v1/reference/exchange-rates?${query}`, {
      headers: env.callerHeaders({ tenantId: `tenant-${market}`, market, baseCurrency: BASE[market] }),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const convert = async (body: unknown, headers?: Record<string, string>) => {
    const res = await fetch(`${service.url}/internal/fx/convert`, {
      method: 'POST',
      headers: headers ?? env.serviceHeaders('entries', 'reference-fx'),
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  describe('GET /api/v1/reference/exchange-rates', () => {
    it.each([
      // market, currency, requested date, publication date, rate, units, source, base, direction
      ['HR', 'USD', '2026-11-20', '2026-11-20', 1.159568, 1, 'HNB', 'EUR', 'ForeignPerBase'],
      ['SI', 'USD', '2026-11-20', '2026-11-20', 1.1596, 1, 'ECB', 'EUR', 'ForeignPerBase'],
      ['SK', 'JPY', '2026-11-20', '2026-11-20', 176.14, 1, 'ECB', 'EUR', 'ForeignPerBase'],
      ['CZ', 'JPY', '2026-11-20', '2026-11-20', 13.744, 100, 'CNB', 'CZK', 'BasePerForeign'],
      ['PL', 'USD', '2026-11-20', '2026-11-20', 3.6672, 1, 'NBP', 'PLN', 'BasePerForeign'],
    ] as const)(
      '%s %s on %s: the %s publication',
      async (market, currency, date, from, rate, units, source, base, direction) => {
        const { status, body } = await rates(market, `currency=${currency}&date=${date}`);
        expect(status).toBe(200);
        expect(body).toMatchObject({ page: 1, pageSize: 20, total: 1, totalPages: 1 });
        expect(body.items).toEqual([
          {
            currency,
            rate,
            units,
            ratePerUnit: units === 100 ? 0.13744 : rate,
            source,
            baseCurrency: base,
            direction,
            date: from,
            requestedDate: date,
          },
        ]);
      },
    );

    it.each([
      ['CZ', 'EUR', '2026-11-21', '2026-11-20', 'Saturday'],
      ['CZ', 'EUR', '2026-11-22', '2026-11-20', 'Sunday'],
      ['CZ', 'EUR', '2026-11-17', '2026-11-16', 'Czech state holiday (no CNB list)'],
      ['CZ', 'EUR', '2026-10-28', '2026-10-27', 'Czech state holiday (no CNB list)'],
      ['PL', 'EUR', '2026-11-11', '2026-11-10', 'Polish Independence Day (no NBP table)'],
      ['HR', 'USD', '2026-11-18', '2026-11-17', 'Croatian Remembrance Day (no HNB list)'],
      ['SI', 'USD', '2026-11-01', '2026-10-30', 'Sunday after a Friday'],
      ['SK', 'USD', '2026-12-24', '2026-11-20', 'a date after the newest publication'],
    ] as const)('%s %s on %s falls back to %s (%s)', async (market, currency, date, from, _why) => {
      const { status, body } = await rates(market, `currency=${currency}&date=${date}`);
      expect(status).toBe(200);
      expect(body.items[0]).toMatchObject({ date: from, requestedDate: date });
    });

    it('no rate on or before the date: 400 EXCHANGE_RATE_UNAVAILABLE keyed currency', async () => {
      const { status, body } = await rates('CZ', 'currency=USD&date=2026-10-25');
      expect(status).toBe(400);
      expect(body).toMatchObject({ code: 'EXCHANGE_RATE_UNAVAILABLE', status: 400 });
      expect(Object.keys(body.errors)).toEqual(['currency']);
    });

    it('a currency the provider does not publish (RSD at HNB): 400 EXCHANGE_RATE_UNAVAILABLE', async () => {
      const { status, body } = await rates('HR', 'currency=RSD&date=2026-11-20');
      expect(status).toBe(400);
      expect(body.code).toBe('EXCHANGE_RATE_UNAVAILABLE');
      expect(body.errors.currency[0]).toMatch(/HNB has published no rate for RSD/);
    });

    it('without a currency: every rate of the publication, by code, paged', async () => {
      const { status, body } = await rates('CZ', 'date=2026-11-21&pageSize=100');
      expect(status).toBe(200);
      expect(body.total).toBe(30);
      expect(body.items.map((r: any) => r.currency)).toEqual([...body.items.map((r: any) => r.currency)].sort());
      expect(body.items.every((r: any) => r.date === '2026-11-20' && r.source === 'CNB')).toBe(true);
      const page2 = await rates('CZ', 'date=2026-11-21&pageSize=20&page=2');
      expect(page2.body).toMatchObject({ page: 2, total: 30, totalPages: 2 });
      expect(page2.body.items).toHaveLength(10);
    });

    it('bad input is 400 VALIDATION_FAILED: a lower-case code, an impossible date, the base currency', async () => {
      for (const [query, field] of [
        ['currency=usd', 'currency'],
        ['currency=USD&date=2026-02-30', 'date'],
        ['currency=CZK', 'currency'],
        ['currency=USD&colour=red', 'colour'],
      ] as const) {
        const { status, body } = await rates('CZ', query);
        expect(status).toBe(400);
        expect(body.code).toBe('VALIDATION_FAILED');
        expect(Object.keys(body.errors)).toContain(field);
      }
    });
  });

  describe('POST /internal/fx/convert', () => {
    it('ForeignPerBase (SI, ECB): 100 USD on a Saturday is 86.24 EUR at the Friday rate', async () => {
      const { status, body } = await convert({ market: 'SI', amount: 100, currency: 'USD', date: '2026-11-21' });
      expect(status).toBe(200);
      expect(body).toEqual({
        amount: '100',
        currency: 'USD',
        date: '2026-11-21',
        baseAmount: '86.24',
        baseCurrency: 'EUR',
        rate: '1.1596',
        units: 1,
        direction: 'ForeignPerBase',
        rateDate: '2026-11-20',
        source: 'ECB',
      });
    });

    it('BasePerForeign with the CNB multiplier (CZ): 1,000 JPY is 137.44 CZK', async () => {
      const { body } = await convert({ market: 'CZ', amount: 1000, currency: 'JPY', date: '2026-11-20' });
      expect(body).toMatchObject({
        baseAmount: '137.44',
        baseCurrency: 'CZK',
        rate: '13.744',
        units: 100,
        source: 'CNB',
      });
    });

    it('BasePerForeign (PL, NBP) and HNB (HR); amounts as decimal text too', async () => {
      // 250.50 × 4.2524 = 1065.2262 → 1065.23 PLN
      expect(
        (await convert({ market: 'PL', amount: '250.50', currency: 'EUR', date: '2026-11-20' })).body,
      ).toMatchObject({
        baseAmount: '1065.23',
        source: 'NBP',
        direction: 'BasePerForeign',
      });
      // 1000 / 24.209080 = 41.3067… → 41.31 EUR
      expect((await convert({ market: 'HR', amount: 1000, currency: 'CZK', date: '2026-11-20' })).body).toMatchObject({
        baseAmount: '41.31',
        source: 'HNB',
        rate: '24.20908',
      });
    });

    it('the base currency: unchanged, provenance null', async () => {
      const { body } = await convert({ market: 'SK', amount: 12.5, currency: 'EUR', date: '2026-11-20' });
      expect(body).toMatchObject({ baseAmount: '12.50', rate: null, rateDate: null, source: null, direction: null });
    });

    it('manual rate while an official rate exists: 400 EXCHANGE_RATE_UNAVAILABLE keyed manualRate', async () => {
      const { status, body } = await convert({
        market: 'CZ',
        amount: 10,
        currency: 'USD',
        date: '2026-11-21',
        manualRate: 21.5,
      });
      expect(status).toBe(400);
      expect(body.code).toBe('EXCHANGE_RATE_UNAVAILABLE');
      expect(Object.keys(body.errors)).toEqual(['manualRate']);
    });

    it('manual rate where the provider publishes none: honoured, provenance MANUAL', async () => {
      const { status, body } = await convert({
        market: 'HR',
        amount: 1172,
        currency: 'RSD',
        date: '2026-11-20',
        manualRate: 117.2,
      });
      expect(status).toBe(200);
      expect(body).toMatchObject({ baseAmount: '10.00', source: 'MANUAL', rate: '117.2', rateDate: '2026-11-20' });
      const before = await convert({
        market: 'CZ',
        amount: 10,
        currency: 'USD',
        date: '2026-10-01',
        manualRate: '21.5',
      });
      expect(before.body).toMatchObject({ baseAmount: '215.00', source: 'MANUAL' });
    });

    it('no rate and no manual rate: 400 EXCHANGE_RATE_UNAVAILABLE keyed currency', async () => {
      const { status, body } = await convert({ market: 'HR', amount: 5, currency: 'RSD', date: '2026-11-20' });
      expect(status).toBe(400);
      expect(body).toMatchObject({ code: 'EXCHANGE_RATE_UNAVAILABLE', errors: { currency: [expect.any(String)] } });
    });

    it('bad input: 400 VALIDATION_FAILED keyed by field', async () => {
      const { status, body } = await convert({
        market: 'XX',
        amount: 12.345,
        currency: 'EUR',
        date: '2026-13-01',
        manualRate: -1,
        extra: true,
      });
      expect(status).toBe(400);
      expect(body.code).toBe('VALIDATION_FAILED');
      expect(Object.keys(body.errors).sort()).toEqual(['amount', 'date', 'extra', 'manualRate', 'market']);
      expect(body.errors.amount).toEqual(['must have at most 2 decimal places']);
      const jpy = await convert({ market: 'CZ', amount: 10.5, currency: 'JPY', date: '2026-11-20' });
      expect(jpy.body.errors).toEqual({ amount: ['must be a whole number'] });
      const unknown = await convert({ market: 'CZ', amount: 1, currency: 'XDR', date: '2026-11-20' });
      expect(Object.keys(unknown.body.errors)).toEqual(['currency']);
    });

    it('refuses a caller context (partners never reach it) and a missing context', async () => {
      const asCaller = await convert(
        { market: 'CZ', amount: 1, currency: 'EUR', date: '2026-11-20' },
        env.callerHeaders({ tenantId: 't' }),
      );
      expect(asCaller.status).toBe(401);
      const none = await convert(
        { market: 'CZ', amount: 1, currency: 'EUR', date: '2026-11-20' },
        { 'content-type': 'application/json' },
      );
      expect(none.status).toBe(401);
    });
  });

  describe('ReferenceFxClient (the published client entries uses)', () => {
    const clientAt = (url: string, timeoutMs?: number) =>
      new ReferenceFxClient(internalTransports('entries', env.signingKey)('reference-fx', url, timeoutMs));

    it('converts, with decimals as text in and out', async () => {
      const client = clientAt(service.url);
      const c = await client.convert({ market: 'CZ', amount: '1000', currency: 'JPY', date: '2026-11-22' });
      expect(decimal(c.baseAmount).toString()).toBe('137.44');
      expect(c).toMatchObject({ baseCurrency: 'CZK', units: 100, source: 'CNB', rateDate: '2026-11-20' });
      expect(decimal(c.rate!).toString()).toBe('13.744');
    });

    it('rethrows EXCHANGE_RATE_UNAVAILABLE with its field errors; an unreachable service is SERVICE_UNAVAILABLE', async () => {
      const client = clientAt(service.url);
      const err = await client
        .convert({ market: 'CZ', amount: '1', currency: 'USD', date: '2026-11-20', manualRate: '21' })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({
        code: 'EXCHANGE_RATE_UNAVAILABLE',
        status: 400,
        errors: { manualRate: [expect.any(String)] },
      });
      const down = clientAt('http://127.0.0.1:9', 500);
      await expect(
        down.convert({ market: 'CZ', amount: '1', currency: 'USD', date: '2026-11-20' }),
      ).rejects.toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
      });
    });
  });

  describe('feeds refused whole', () => {
    const importer = () => {
      const store = new FxStore(registerFxModels(service.deps.mongo));
      return { store, importer: new FxImporter(store, service.deps.logger, service.deps.metrics) };
    };

    it('a history feed with one bad date stores none of its dates, and is counted', async () => {
      const { store, importer: imp } = importer();
      // Two dates the seed does not have; the second carries a broken rate.
      const good = readFileSync(join(FIXTURES, 'daily', 'ecb-eurofxref-daily.xml'), 'utf8');
      const day = (date: string, text: string) =>
        text.match(/\t\t<Cube time='[^']+'>[\s\S]*?\t\t<\/Cube>\n/)![0]!.replace(/time='[^']+'/, `time='${date}'`);
      const feed = good.replace(
        /\t\t<Cube time='[\s\S]*?\t\t<\/Cube>\n/,
        day('2027-01-05', good) + day('2027-01-04', good).replace("rate='1.1596'", "rate='1,1596'"),
      );
      const outcome = await imp.importText('ECB', feed, 'test');
      expect(outcome).toMatchObject({ ok: false, provider: 'ECB' });
      expect(await store.has('ECB', '2027-01-05')).toBe(false);
      expect(await store.has('ECB', '2027-01-04')).toBe(false);
      const metrics = await service.deps.metrics.registry.getSingleMetricAsString('fx_feed_rejected_total');
      expect(metrics).toMatch(/fx_feed_rejected_total\{provider="ECB",service="reference-fx"\} 1/);
    });

    it('every recorded invalid file is refused and leaves the store unchanged', async () => {
      const { store, importer: imp } = importer();
      const before = await store.newestDate('CNB');
      for (const [provider, name] of [
        ['HNB', 'hnb-truncated.json'],
        ['HNB', 'hnb-dot-decimal.json'],
        ['ECB', 'ecb-truncated.xml'],
        ['ECB', 'ecb-without-usd.xml'],
        ['CNB', 'cnb-short-row.txt'],
        ['CNB', 'cnb-zero-amount.txt'],
        ['NBP', 'nbp-without-usd.json'],
      ] as const) {
        const text = readFileSync(join(FIXTURES, 'invalid', name), 'utf8');
        expect(await imp.importText(provider, text, name)).toMatchObject({ ok: false });
      }
      expect(await store.newestDate('CNB')).toBe(before);
    });

    it('a restart skips the recorded feeds it stored before, unread, and reads a changed one again', async () => {
      const { importer: imp } = importer();
      const text = readFileSync(join(FIXTURES, 'feeds', 'cnb-denni_kurz-2026-11-20.txt'), 'utf8');
      const feed = { provider: 'CNB' as const, name: `restart-${Date.now()}`, text };
      expect(await imp.seed([feed])).toEqual([{ ok: true, provider: 'CNB', stored: 0, dates: [] }]);
      expect(await imp.seed([feed])).toEqual([{ ok: true, provider: 'CNB', stored: 0, dates: [], unchanged: true }]);
      expect(await imp.seed([{ ...feed, text: `${text}\n` }])).toEqual([
        { ok: true, provider: 'CNB', stored: 0, dates: [] },
      ]);
    });

    it('seeding again keeps what is stored (a real import is never overwritten by a recording)', async () => {
      const { importer: imp } = importer();
      const text = readFileSync(join(FIXTURES, 'feeds', 'cnb-denni_kurz-2026-11-20.txt'), 'utf8');
      expect(await imp.seed([{ provider: 'CNB', name: 'again', text }])).toEqual([
        { ok: true, provider: 'CNB', stored: 0, dates: [] },
      ]);
    });
  });
});

describe('reference-fx scheduled import', () => {
  let env: TestEnv;
  let service: Running;
  const fixture = (...p: string[]) => readFileSync(join(FIXTURES, ...p), 'utf8');

  beforeAll(async () => {
    env = await createTestEnv('fx-import');
    // The feeds "on the network": HNB, ECB and NBP answer their recorded day; CNB times out every attempt.
    const fakeFetch = (async (url: string | URL) => {
      const u = String(url);
      if (u.includes('cnb')) throw new Error('The operation was aborted due to timeout');
      const body = u.includes('hnb')
        ? fixture('daily', 'hnb-tecajn-eur-v3-2026-11-20.json')
        : u.includes('ecb')
          ? fixture('daily', 'ecb-eurofxref-daily.xml')
          : fixture('daily', 'nbp-table-A-2026-11-20.json');
      return new Response(body, { status: 200 });
    }) as typeof fetch;
    service = await start(
      {
        ...process.env,
        ...env.vars,
        FX_IMPORT_ENABLED: 'true',
        FX_IMPORT_RETRIES: '2',
        FX_IMPORT_RETRY_DELAY_MS: '10',
        FX_HNB_URL: 'https://hnb.test/tecajn-eur/v3',
        FX_ECB_URL: 'https://ecb.test/eurofxref-daily.xml',
        FX_CNB_URL: 'https://cnb.test/denni_kurz.txt',
        FX_NBP_URL: 'https://nbp.test/api/exchangerates/tables/A/?format=json',
      },
      { fetch: fakeFetch },
    );
  });
  afterAll(async () => {
    await service?.stop();
    await env?.cleanup();
  });

  it('stores what it fetched; a failing feed is logged and counted, the others unaffected', async () => {
    const store = new FxStore(registerFxModels(service.deps.mongo));
    const metric = () => service.deps.metrics.registry.getSingleMetricAsString('fx_feed_fetch_failures_total');
    await eventually(async () => /provider="CNB"[^\n]*\} 1/.test(await metric()));
    for (const provider of ['HNB', 'ECB', 'NBP'] as const) {
      expect(await store.newestDate(provider)).toBe('2026-11-20');
    }
    expect(await store.newestDate('CNB')).toBeNull();
    const stored = await service.deps.metrics.registry.getSingleMetricAsString('fx_publications_stored_total');
    expect(stored).toMatch(/provider="NBP"[^\n]*\} 1/);
  });
});
