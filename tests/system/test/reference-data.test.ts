// Reference data through the gateway: the official municipality lists (counts from the issue, samples
// from the official sources), the statutory rate table per market (figures from
// ../shared/research/REGULATIONS.md), and the company's allow-lists.
import { randomUUID } from 'node:crypto';
import { allBut, limitedCaller } from '@travel/employees/test/support/org-fixtures';
import { DOMAIN_EXCHANGE } from '@travel/platform';
import { eventually, type ApiClient } from '@travel/testkit';
import { startReferenceStack, type ReferenceStack } from './support/reference-stack';

/** Every page of a paged list, as a partner reads it. */
async function readAll(api: ApiClient, path: string): Promise<any[]> {
  const items: any[] = [];
  for (let page = 1; ; page++) {
    const res = await api.get(`${path}${path.includes('?') ? '&' : '?'}page=${page}&pageSize=100`);
    expect(res.status).toBe(200);
    items.push(...res.body.items);
    if (page >= res.body.totalPages) return items;
  }
}

const row = (body: any, kind: string, item: string, countryCode?: string | null) =>
  body.rows.find(
    (r: any) => r.kind === kind && r.item === item && (countryCode === undefined || r.countryCode === countryCode),
  );
const values = (body: any, kind: string) =>
  body.rows.filter((r: any) => r.kind === kind).map((r: any) => [r.item, r.value, r.currencyCode]);

describe('reference data', () => {
  let stack: ReferenceStack;

  beforeAll(async () => {
    stack = await startReferenceStack('reference-data');
  });
  afterAll(async () => {
    await stack?.stop();
  });

  describe('municipalities', () => {
    it('212 Slovenian municipalities with their codes, for a tenant of any market', async () => {
      const t = await stack.tenant('HR');
      const first = await t.api.get('/api/v1/reference/slovenian-municipalities');
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ page: 1, pageSize: 20, total: 212, totalPages: 11 });
      const all = await readAll(t.api, '/api/v1/reference/slovenian-municipalities');
      expect(all).toHaveLength(212);
      expect(new Set(all.map((m) => m.code)).size).toBe(212);
      expect(all).toContainEqual({ code: '061', isoCode: 'SI-061', name: 'Ljubljana' });
      expect(all).toContainEqual({ code: '070', isoCode: 'SI-070', name: 'Maribor' });
      expect(all).toContainEqual({ code: '213', isoCode: 'SI-213', name: 'Ankaran/Ancarano' });
    });

    it('556 Croatian towns and municipalities with their codes, for a key holding no permission', async () => {
      const owner = await stack.tenant('SK');
      const nobody = await limitedCaller(owner.api, []);
      const all = await readAll(nobody.api, '/api/v1/reference/croatian-municipalities');
      expect(all).toHaveLength(556);
      expect(new Set(all.map((m) => m.code)).size).toBe(556);
      expect(all).toContainEqual({ code: '1333', name: 'ZAGREB' });
      expect(all).toContainEqual({ code: '604', name: 'ČAKOVEC' });
    });

    it('q finds a name without diacritics, or a code', async () => {
      const t = await stack.tenant('SI');
      const byName = await t.api.get('/api/v1/reference/croatian-municipalities?q=cakovec');
      expect(byName.body).toMatchObject({ total: 1, items: [{ code: '604', name: 'ČAKOVEC' }] });
      const byCode = await t.api.get('/api/v1/reference/slovenian-municipalities?q=061');
      expect(byCode.body.items).toEqual([{ code: '061', isoCode: 'SI-061', name: 'Ljubljana' }]);
    });

    it('a page size over 100 is 400 VALIDATION_FAILED', async () => {
      const t = await stack.tenant('SI');
      const res = await t.api.get('/api/v1/reference/slovenian-municipalities?pageSize=101');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: { pageSize: expect.any(Array) } });
    });
  });

  describe('per-diem rates of the caller’s market', () => {
    it('CZ on 2026-03-02: stravné 155 / 236 / 370 Kč (public sector up to 185 / 284 / 442), 5.90 Kč/km, fuel prices', async () => {
      const t = await stack.tenant('CZ');
      const res = await t.api.get('/api/v1/reference/per-diem-rates?date=2026-03-02');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ market: 'CZ', date: '2026-03-02', countryCode: null });
      expect(values(res.body, 'DomesticPerDiem')).toEqual([
        ['5-12h', '155', 'CZK'],
        ['>12-18h', '236', 'CZK'],
        ['>18h', '370', 'CZK'],
      ]);
      expect(row(res.body, 'DomesticPerDiem', '>18h')).toMatchObject({
        maximum: '442',
        effectiveFrom: '2026-01-01',
        effectiveTo: '2026-12-31',
        source: { act: expect.stringContaining('573/2025') },
      });
      expect(row(res.body, 'Mileage', 'Car')).toMatchObject({ value: '5.90', unit: 'PerKm', currencyCode: 'CZK' });
      expect(row(res.body, 'Mileage', 'Motorcycle')).toMatchObject({ value: '1.60' });
      expect(values(res.body, 'FuelPrice')).toEqual([
        ['Natural95', '34.70', 'CZK'],
        ['Natural98', '39.00', 'CZK'],
        ['Diesel', '34.10', 'CZK'],
        ['Electricity', '7.20', 'CZK'],
      ]);
    });

    it('CZ in 2025: the 2025 decree (148 / 225 / 353 Kč, 5.80 Kč/km, diesel 34.70)', async () => {
      const t = await stack.tenant('CZ');
      const res = await t.api.get('/api/v1/reference/per-diem-rates?date=2025-12-31&country=CZ');
      expect(values(res.body, 'DomesticPerDiem').map((v: string[]) => v[1])).toEqual(['148', '225', '353']);
      expect(row(res.body, 'Mileage', 'Car').value).toBe('5.80');
      expect(row(res.body, 'FuelPrice', 'Diesel').value).toBe('34.70');
    });

    it('CZ to Germany: 50 € a day in 2026 (vyhl. 489/2025 Sb.), 45 € in 2025 (373/2024 Sb.); bands ⅓ / ⅔ / full', async () => {
      const t = await stack.tenant('CZ');
      const res = await t.api.get('/api/v1/reference/per-diem-rates?date=2026-03-02&country=DE');
      expect(row(res.body, 'ForeignPerDiem', 'FullDay', 'DE')).toMatchObject({
        value: '50',
        currencyCode: 'EUR',
        effectiveFrom: '2026-01-01',
        effectiveTo: '2026-12-31',
        source: {
          act: 'Vyhláška č. 489/2025 Sb.',
          provision: '§ 170 odst. 1 zákoníku práce; příloha vyhlášky',
          reportedBy: expect.any(String),
        },
      });
      expect(res.body.rows.filter((r: any) => r.unit === 'Share').map((r: any) => [r.item, r.value])).toEqual([
        ['1-12h', '1/3'],
        ['>12-18h', '2/3'],
        ['>18h', '1/1'],
      ]);
      const y2025 = await t.api.get('/api/v1/reference/per-diem-rates?date=2025-06-02&country=DE');
      expect(row(y2025.body, 'ForeignPerDiem', 'FullDay', 'DE').value).toBe('45');
    });

    it('CZ to Slovenia 40 € and to a country the annex does not list (Ostatní země) 35 €; 2024 unknown', async () => {
      const t = await stack.tenant('CZ');
      const res = await t.api.get('/api/v1/reference/per-diem-rates?date=2026-03-02&country=SI');
      expect(row(res.body, 'ForeignPerDiem', 'FullDay', 'SI')).toMatchObject({ value: '40', currencyCode: 'EUR' });
      const rest = await t.api.get('/api/v1/reference/per-diem-rates?date=2026-03-02&country=GL');
      expect(row(rest.body, 'ForeignPerDiem', 'FullDay', 'GL')).toMatchObject({ value: '35', currencyCode: 'EUR' });
      const y2024 = await t.api.get('/api/v1/reference/per-diem-rates?date=2024-06-03&country=SI');
      expect(y2024.body.rows.filter((r: any) => r.item === 'FullDay')).toEqual([]);
      expect(y2024.body.unknown).toContainEqual({
        kind: 'ForeignPerDiem',
        countryCode: 'SI',
        reason: expect.any(String),
      });
    });

    it('SK to Japan: only reported (one secondary source), so unknown with the reported figure named', async () => {
      const t = await stack.tenant('SK');
      const res = await t.api.get('/api/v1/reference/per-diem-rates?date=2026-03-02&country=JP');
      expect(res.body.unknown).toContainEqual({
        kind: 'ForeignPerDiem',
        countryCode: 'JP',
        reason: expect.any(String),
        reported: [expect.objectContaining({ amount: '6500', currencyCode: 'JPY', source: expect.any(String) })],
      });
    });

    it('SK: stravné 9.30 / 13.80 / 20.60 €, CZ base rate 600 CZK, 0.313 €/km; fuel prices unknown', async () => {
      const t = await stack.tenant('SK');
      const domestic = await t.api.get('/api/v1/reference/per-diem-rates?date=2026-03-02');
      expect(values(domestic.body, 'DomesticPerDiem')).toEqual([
        ['5-12h', '9.30', 'EUR'],
        ['>12-18h', '13.80', 'EUR'],
        ['>18h', '20.60', 'EUR'],
      ]);
      expect(row(domestic.body, 'Mileage', 'Car').value).toBe('0.313');
      expect(domestic.body.unknown).toContainEqual(expect.objectContaining({ kind: 'FuelPrice' }));
      const czech = await t.api.get('/api/v1/reference/per-diem-rates?date=2026-03-02&country=CZ');
      expect(row(czech.body, 'ForeignPerDiem', 'FullDay', 'CZ')).toMatchObject({ value: '600', currencyCode: 'CZK' });
      expect(czech.body.rows.some((r: any) => r.kind === 'DomesticPerDiem')).toBe(false);
    });

    it('PL: dieta 45 zł (0 / 22.50 / 45.00 by band), night 67.50 zł, Austria 57 EUR with hotel limit 150', async () => {
      const t = await stack.tenant('PL');
      const domestic = await t.api.get('/api/v1/reference/per-diem-rates?date=2026-03-02&country=PL');
      expect(values(domestic.body, 'DomesticPerDiem')).toEqual([
        ['<8h', '0.00', 'PLN'],
        ['8-12h', '22.50', 'PLN'],
        ['>12h', '45.00', 'PLN'],
      ]);
      expect(row(domestic.body, 'NightAllowance', 'LumpSum')).toMatchObject({ value: '67.50', unit: 'PerNight' });
      expect(row(domestic.body, 'Mileage', 'CarOver900cc').value).toBe('1.15');
      const austria = await t.api.get('/api/v1/reference/per-diem-rates?date=2026-03-02&country=AT');
      expect(row(austria.body, 'ForeignPerDiem', 'FullDay', 'AT')).toMatchObject({ value: '57', currencyCode: 'EUR' });
      expect(row(austria.body, 'NightAllowance', 'HotelLimit', 'AT')).toMatchObject({ value: '150' });
    });

    it('HR: dnevnica 15 / 30 €, Austria 90 €, Belgium 90 €, Bosnia 50 €, 0.50 €/km; Germany unknown', async () => {
      const t = await stack.tenant('HR');
      const domestic = await t.api.get('/api/v1/reference/per-diem-rates?date=2026-03-02');
      expect(values(domestic.body, 'DomesticPerDiem')).toEqual([
        ['8-12h', '15.00', 'EUR'],
        ['>12h', '30.00', 'EUR'],
      ]);
      expect(row(domestic.body, 'Mileage', 'Car').value).toBe('0.50');
      expect(row(domestic.body, 'ForeignPerDiem', 'FullDay', 'AT').value).toBe('90.00');
      expect(row(domestic.body, 'ForeignPerDiem', 'FullDay', 'BE').value).toBe('90.00');
      expect(row(domestic.body, 'ForeignPerDiem', 'FullDay', 'BA').value).toBe('50.00');
      const germany = await t.api.get('/api/v1/reference/per-diem-rates?date=2026-03-02&country=DE');
      expect(germany.body.unknown).toContainEqual(
        expect.objectContaining({ kind: 'ForeignPerDiem', countryCode: 'DE' }),
      );
    });

    it('SI: dnevnica 13.88 / 27.81 € from 2023 (6–8 h unknown), 21.39 € in 2022; Croatia 40 € in 2025 but unknown in 2026; 0.43 €/km', async () => {
      const t = await stack.tenant('SI');
      const domestic = await t.api.get('/api/v1/reference/per-diem-rates?date=2026-03-02&country=SI');
      expect(values(domestic.body, 'DomesticPerDiem')).toEqual([
        ['>8-12h', '13.88', 'EUR'],
        ['>12-24h', '27.81', 'EUR'],
      ]);
      expect(row(domestic.body, 'DomesticPerDiem', '>12-24h').effectiveFrom).toBe('2023-01-01');
      expect(domestic.body.unknown).toContainEqual(
        expect.objectContaining({ kind: 'DomesticPerDiem', countryCode: 'SI' }),
      );
      expect(row(domestic.body, 'Mileage', 'Car').value).toBe('0.43');
      const y2022 = await t.api.get('/api/v1/reference/per-diem-rates?date=2022-06-01&country=SI');
      expect(values(y2022.body, 'DomesticPerDiem').map((v: string[]) => v[1])).toEqual(['7.45', '10.68', '21.39']);
      const y2025 = await t.api.get('/api/v1/reference/per-diem-rates?date=2025-06-01&country=HR');
      expect(row(y2025.body, 'ForeignPerDiem', 'FullDay', 'HR')).toMatchObject({
        value: '40',
        currencyCode: 'EUR',
        effectiveTo: '2025-12-31',
      });
      const y2026 = await t.api.get('/api/v1/reference/per-diem-rates?date=2026-03-02&country=HR');
      expect(row(y2026.body, 'ForeignPerDiem', 'FullDay', 'HR')).toBeUndefined();
      expect(y2026.body.unknown).toContainEqual(expect.objectContaining({ kind: 'ForeignPerDiem', countryCode: 'HR' }));
    });

    it('without a date: today (UTC)', async () => {
      const t = await stack.tenant('HR');
      const res = await t.api.get('/api/v1/reference/per-diem-rates');
      expect(res.status).toBe(200);
      expect(res.body.date).toBe(new Date().toISOString().slice(0, 10));
    });

    it('a country ISO does not know, or a malformed date, is 400 VALIDATION_FAILED', async () => {
      const t = await stack.tenant('HR');
      const country = await t.api.get('/api/v1/reference/per-diem-rates?country=XX');
      expect(country.status).toBe(400);
      expect(country.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: { country: expect.any(Array) } });
      const date = await t.api.get('/api/v1/reference/per-diem-rates?date=2026-02-30');
      expect(date.status).toBe(400);
      expect(date.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: { date: expect.any(Array) } });
    });
  });

  describe('allow-lists', () => {
    it('start as the market’s defaults', async () => {
      const t = await stack.tenant('HR');
      const countries = await t.api.get('/api/v1/reference/countries');
      expect(countries.status).toBe(200);
      expect(countries.body).toEqual({
        countryCodes: expect.arrayContaining(['HR', 'SI', 'SK', 'CZ', 'PL', 'AT', 'DE', 'BA', 'RS']),
        isDefault: true,
        editedAt: null,
      });
      const currencies = await t.api.get('/api/v1/reference/currencies');
      expect(currencies.body).toEqual({
        currencyCodes: expect.arrayContaining(['EUR', 'CZK', 'PLN', 'BAM']),
        isDefault: true,
        editedAt: null,
      });
    });

    it.each(['HR', 'SK', 'PL'] as const)(
      '%s: a new company’s profile enables the same countries and currencies as its allow-lists (one list, 0174)',
      async (market) => {
        const t = await stack.tenant(market);
        const [company, countries, currencies] = await Promise.all(
          ['/api/v1/company', '/api/v1/reference/countries', '/api/v1/reference/currencies'].map((p) => t.api.get(p)),
        );
        expect(company.status).toBe(200);
        expect(company.body.enabledCountries).toEqual(countries.body.countryCodes);
        expect(company.body.enabledCurrencies).toEqual(currencies.body.currencyCodes);
      },
    );

    it('after a PUT of each list the profile shows exactly the new lists, past its old ETag; another tenant’s profile is untouched (0184)', async () => {
      const a = await stack.tenant('HR');
      const b = await stack.tenant('HR');
      const before = await a.api.get('/api/v1/company');
      const etag = before.headers.get('etag')!;
      expect((await a.api.get('/api/v1/company', { 'if-none-match': etag })).status).toBe(304);
      const othersBefore = (await b.api.get('/api/v1/company')).body;

      const countries = await a.api.put('/api/v1/reference/countries', { countryCodes: ['SI', 'AT', 'HR'] });
      const currencies = await a.api.put('/api/v1/reference/currencies', { currencyCodes: ['USD', 'EUR'] });
      expect([countries.status, currencies.status]).toEqual([200, 200]);
      const followed = await eventually(async () => {
        const company = await a.api.get('/api/v1/company');
        return company.body.enabledCountries.join() === 'AT,HR,SI' &&
          company.body.enabledCurrencies.join() === 'EUR,USD'
          ? company
          : undefined;
      });
      // Exactly the lists the reference endpoints answer, the rest of the profile as it was.
      expect(followed.body).toEqual({
        ...before.body,
        enabledCountries: countries.body.countryCodes,
        enabledCurrencies: currencies.body.currencyCodes,
      });
      expect((await a.api.get('/api/v1/reference/countries')).body.countryCodes).toEqual(['AT', 'HR', 'SI']);
      const revalidated = await a.api.get('/api/v1/company', { 'if-none-match': etag });
      expect(revalidated.status).toBe(200);
      expect(revalidated.body).toEqual(followed.body);

      const other = await b.api.get('/api/v1/company');
      expect(other.body).toEqual(othersBefore);
    });

    it('an older allow-list event handled after a newer one changes nothing; one for no company is acknowledged (0184)', async () => {
      const t = await stack.tenant('SK');
      await t.api.put('/api/v1/reference/countries', { countryCodes: ['SK', 'CZ'] });
      await eventually(async () => (await t.api.get('/api/v1/company')).body.enabledCountries.join() === 'CZ,SK');

      const event = (tenantId: string, occurredAt: Date) => ({
        id: randomUUID(),
        type: 'allow-list.updated',
        tenantId,
        occurredAt: occurredAt.toISOString(),
        data: { kind: 'countries', codes: ['AT'] },
      });
      const stale = event(t.tenantId, new Date(Date.now() - 3_600_000));
      const nobody = event(randomUUID(), new Date());
      const ch = await stack.employees.deps.amqp.channel();
      try {
        for (const e of [stale, nobody])
          ch.publish(DOMAIN_EXCHANGE, 'reference-fx.allow-list.updated', Buffer.from(JSON.stringify(e)), {
            messageId: e.id,
            contentType: 'application/json',
          });
        // Both handled and acknowledged: done in employees' inbox, nothing parked.
        const inbox = stack.employees.deps.mongo.collection('inbox');
        await eventually(
          async () => (await inbox.countDocuments({ eventId: { $in: [stale.id, nobody.id] }, state: 'done' })) === 2,
        );
        expect((await ch.checkQueue('employees.company-allow-lists.parking')).messageCount).toBe(0);
      } finally {
        await ch.close();
      }
      expect((await t.api.get('/api/v1/company')).body.enabledCountries).toEqual(['CZ', 'SK']);
    });

    it('a ManageCompanyData caller replaces a list; a GET body is a valid PUT body; another tenant is unaffected', async () => {
      const a = await stack.tenant('CZ');
      const b = await stack.tenant('CZ');
      const put = await a.api.put('/api/v1/reference/countries', { countryCodes: ['SK', 'AT', 'SK', 'DE'] });
      expect(put.status).toBe(200);
      expect(put.body).toEqual({ countryCodes: ['AT', 'DE', 'SK'], isDefault: false, editedAt: expect.any(String) });
      const read = await a.api.get('/api/v1/reference/countries');
      expect(read.body).toEqual(put.body);
      const again = await a.api.put('/api/v1/reference/countries', read.body);
      expect(again.status).toBe(200);
      // A PUT that changes nothing is a no-op: the same body, editedAt included.
      expect(again.body).toEqual(put.body);

      const currencies = await a.api.put('/api/v1/reference/currencies', { currencyCodes: ['USD', 'EUR'] });
      expect(currencies.body).toMatchObject({ currencyCodes: ['EUR', 'USD'], isDefault: false });

      // Every code of the contract's CurrencyCode enum is taken (XCG and ZWG, ISO 4217's newest, were
      // refused by a list of its own before: issue 21), and a withdrawn code is not in it (HRK).
      const newest = await a.api.put('/api/v1/reference/currencies', { currencyCodes: ['XCG', 'ZWG', 'EUR'] });
      expect(newest.status).toBe(200);
      expect(newest.body.currencyCodes).toEqual(['EUR', 'XCG', 'ZWG']);
      const withdrawn = await a.api.put('/api/v1/reference/currencies', { currencyCodes: ['HRK'] });
      expect(withdrawn.status).toBe(400);
      expect(withdrawn.body.errors).toHaveProperty(['currencyCodes[0]']);

      const other = await b.api.get('/api/v1/reference/countries');
      expect(other.body.isDefault).toBe(true);
      expect(other.body.countryCodes).toEqual(expect.arrayContaining(['CZ', 'PL', 'HR']));
      expect((await b.api.get('/api/v1/reference/currencies')).body.isDefault).toBe(true);
    });

    it('a write publishes reference-fx.allow-list.updated with the list as stored (for the contexts that enforce it)', async () => {
      const t = await stack.tenant('SK');
      const ch = await stack.referenceFx.deps.amqp.channel();
      const queue = `allow-list-tap-${t.tenantId}`;
      await ch.assertQueue(queue, { durable: false, autoDelete: false });
      await ch.bindQueue(queue, DOMAIN_EXCHANGE, 'reference-fx.allow-list.updated');
      try {
        await t.api.put('/api/v1/reference/currencies', { currencyCodes: ['USD', 'EUR', 'CZK'] });
        // Earlier tests' events may still be on their way: take this tenant's.
        const event = await eventually(async () => {
          const message = await ch.get(queue, { noAck: true });
          if (!message) return undefined;
          const body = JSON.parse(message.content.toString('utf8'));
          return body.tenantId === t.tenantId ? body : undefined;
        }, 10_000);
        expect(event).toMatchObject({
          type: 'allow-list.updated',
          tenantId: t.tenantId,
          data: { kind: 'currencies', codes: ['CZK', 'EUR', 'USD'] },
        });
        // The same list again changes nothing and raises nothing: the next event is the later change.
        await t.api.put('/api/v1/reference/currencies', { currencyCodes: ['EUR', 'CZK', 'USD'] });
        await t.api.put('/api/v1/reference/currencies', { currencyCodes: ['EUR'] });
        const next = await eventually(async () => {
          const message = await ch.get(queue, { noAck: true });
          if (!message) return undefined;
          const body = JSON.parse(message.content.toString('utf8'));
          return body.tenantId === t.tenantId ? body : undefined;
        }, 10_000);
        expect(next).toMatchObject({ tenantId: t.tenantId, data: { kind: 'currencies', codes: ['EUR'] } });
      } finally {
        await ch.deleteQueue(queue);
      }
    });

    it('without ManageCompanyData: reads work, a PUT is 403 and changes nothing', async () => {
      const owner = await stack.tenant('PL');
      const limited = await limitedCaller(owner.api, allBut('ManageCompanyData'));
      expect((await limited.api.get('/api/v1/reference/currencies')).status).toBe(200);
      const countries = await limited.api.put('/api/v1/reference/countries', { countryCodes: ['PL'] });
      expect(countries.status).toBe(403);
      expect(countries.body.code).toBe('FORBIDDEN');
      const currencies = await limited.api.put('/api/v1/reference/currencies', { currencyCodes: ['PLN'] });
      expect(currencies.status).toBe(403);
      expect((await owner.api.get('/api/v1/reference/countries')).body.isDefault).toBe(true);
    });

    it('refuses codes ISO does not know (keyed by position), unknown fields and a missing list', async () => {
      const t = await stack.tenant('SI');
      const unknownCode = await t.api.put('/api/v1/reference/countries', { countryCodes: ['SI', 'XX'] });
      expect(unknownCode.status).toBe(400);
      expect(unknownCode.body).toMatchObject({
        code: 'VALIDATION_FAILED',
        errors: { 'countryCodes[1]': expect.any(Array) },
      });
      const badCurrency = await t.api.put('/api/v1/reference/currencies', { currencyCodes: ['EUR', 'XAU'] });
      expect(badCurrency.body.errors).toHaveProperty(['currencyCodes[1]']);
      const lowerCase = await t.api.put('/api/v1/reference/currencies', { currencyCodes: ['eur'] });
      expect(lowerCase.status).toBe(400);
      const extra = await t.api.put('/api/v1/reference/countries', { countryCodes: ['SI'], colour: 'red' });
      expect(extra.status).toBe(400);
      const missing = await t.api.put('/api/v1/reference/countries', {});
      expect(missing.status).toBe(400);
      expect((await t.api.get('/api/v1/reference/countries')).body.isDefault).toBe(true);
    });
  });
});
