// Per-diem rows on travel entries through the gateway (issue 14; SPEC "Per-diem (fields known)", Endpoints
// rule 4): nested on the atomic create, rebuilt by from-itinerary (one entry.updated at a real HTTPS
// receiver), kept or replaced by the entry's PUT (docs/decisions/0070-0071), and the amount-mode
// allocations re-checked when a child changes the entry's total (issue 12; docs/decisions/0072).
// Expected figures are computed by hand from ../shared/research/REGULATIONS.md (2026 tables) and the
// recorded provider feeds, not taken from the engine. November 2026: CET (UTC+1) in every market.
import { crossTenant } from '@travel/platform';
import { verify } from '@travel/webhook-verify';
import { costCenter } from '@travel/employees/test/support/org-fixtures';
import { registerModels } from '@travel/entries/src/infra/models';
import { eventually, type ApiClient } from '@travel/testkit';
import { startEntriesStack, type EntriesStack } from './support/entries-stack';

// Direct store probes of the test look across tenants on purpose (docs/decisions/0081).
const TEST_PROBE = crossTenant('test probe');

const ENTRIES = '/api/v1/travel-entries';
const CALCULATE = '/api/v1/utilities/per-diems/calculate';
const fromItinerary = (id: string) => `${ENTRIES}/${id}/per-diems/from-itinerary`;

/** PL employee: Warsaw 06:00 → Austrian border 08:00 → back 22:00 → home 00:00 (local), 3 Nov 2026. */
const PL_VIENNA = [
  { time: '2026-11-03T05:00:00Z', countryCode: 'PL' },
  { time: '2026-11-03T07:00:00Z', countryCode: 'AT' },
  { time: '2026-11-03T21:00:00Z', countryCode: 'PL' },
  { time: '2026-11-03T23:00:00Z', countryCode: 'PL' },
];

/** A 16-hour domestic day, 06:00–22:00 local (05:00Z–21:00Z), 2 Nov 2026. */
const domesticRow = (market: string, extra: Record<string, unknown> = {}) => ({
  countryCode: market,
  departureTime: '2026-11-02T05:00:00Z',
  arrivalTime: '2026-11-02T21:00:00Z',
  ...extra,
});

describe('entries: per-diem rows', () => {
  let stack: EntriesStack;
  let pl: ApiClient;
  let hr: ApiClient;
  let cz: ApiClient;

  beforeAll(async () => {
    stack = await startEntriesStack('entries-per-diems');
    pl = (await stack.tenant('PL')).api;
    hr = (await stack.tenant('HR')).api;
    cz = (await stack.tenant('CZ')).api;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const entry = async (api: ApiClient, body: Record<string, unknown> = {}) => {
    const res = await api.post(ENTRIES, { departureDate: '2026-11-02', returnDate: '2026-11-03', ...body });
    if (res.status !== 201) throw new Error(`entry: ${res.status} ${res.text}`);
    return res.body;
  };

  describe('from-itinerary', () => {
    it('agrees with the calculator, stores true UTC times, and raises one entry.updated at the receiver', async () => {
      const receiver = await stack.receiver();
      const sub = await pl.post('/api/v1/webhooks', { url: receiver.url, eventTypes: ['entry.updated'] });
      expect(sub.status).toBe(201);
      const e = await entry(pl, { departureDate: '2026-11-03', returnDate: '2026-11-04' });

      const calc = await pl.post(CALCULATE, { stops: PL_VIENNA });
      expect(calc.status).toBe(200);
      const res = await pl.post(fromItinerary(e.id), { stops: PL_VIENNA });
      expect(res.status).toBe(200);
      // PL, rozporządzenie 2013 (Dz.U. 2023 poz. 2190): home parts of a foreign trip are short stays, 2 h
      // each (< 8 h) → 0 zł; Austria 14 h, an incomplete day over 12 h → 100 % of the annex rate 57 EUR.
      // FX: NBP table A of the trip's start date 2026-11-03, EUR 4.2558: 57 × 4.2558 = 242.5806 → 242.58 zł.
      expect(res.body.total).toBe(242.58);
      expect(res.body.currencyCode).toBe('PLN');
      expect(res.body.complete).toBe(true);
      expect(
        res.body.items.map((r: Record<string, unknown>) => [r.countryCode, r.departureTime, r.arrivalTime]),
      ).toEqual([
        ['PL', '2026-11-03T05:00:00Z', '2026-11-03T07:00:00Z'],
        ['AT', '2026-11-03T07:00:00Z', '2026-11-03T21:00:00Z'],
        ['PL', '2026-11-03T21:00:00Z', '2026-11-03T23:00:00Z'],
      ]);
      expect(res.body.items[1]).toMatchObject({
        amount: 57,
        currencyCode: 'EUR',
        amountInBaseCurrency: 242.58,
        exchangeRateSource: 'NBP',
        fxDate: '2026-11-03',
        payableAmount: 57,
        excessAmount: null,
        mealsProvided: 0,
        nightOffWindowOverride: [],
        nightOverrideReason: null,
      });
      // Same rows and amounts as the stateless calculator (which echoes wall-clock times).
      const same = (r: Record<string, unknown>) => [
        r.countryCode,
        r.hours,
        r.band,
        r.amount,
        r.currencyCode,
        r.amountInBaseCurrency,
        r.exchangeRateSource,
      ];
      expect(res.body.items.map(same)).toEqual(calc.body.items.map(same));
      expect(res.body.total).toBe(calc.body.total);
      expect(calc.body.items[1].departureTime).toBe('2026-11-03T08:00:00'); // Warsaw wall clock of 07:00Z

      // Later reads return the same rows, as UTC instants.
      const detail = (await pl.get(`${ENTRIES}/${e.id}`)).body;
      expect(detail.perDiems).toEqual(res.body.items);
      expect(detail.perDiemTotal).toBe(242.58);
      expect(detail.perDiems[1].departureTime).toBe('2026-11-03T07:00:00Z');

      const marker = await entry(pl, { departureDate: '2026-12-01', returnDate: '2026-12-01' });
      await pl.put(`${ENTRIES}/${marker.id}`, { ...marker, returnDate: '2026-12-02' });
      await eventually(async () => receiver.requests.some((r) => r.body.toString('utf8').includes(marker.id)));
      const mine = receiver.requests
        .map((r) => {
          verify(r.body, r.headers as Record<string, string>, sub.body.signingSecret);
          return JSON.parse(r.body.toString('utf8'));
        })
        .filter((env) => env.data.id === e.id);
      expect(mine).toHaveLength(1);
      expect(mine[0].type).toBe('entry.updated');
      expect(mine[0].data.editedAt).toBe(detail.editedAt);
      expect(JSON.stringify(mine[0])).not.toContain('perDiems');
    });

    // One worked example per market, a 16-hour domestic day (05:00Z–21:00Z): the calculator and
    // from-itinerary give the same row and amount (figures as in per-diem-calculator.test.ts).
    it.each([
      ['CZ', 236], // §163, vyhl. 573/2025 Sb.: > 12–18 h → 236 Kč
      ['SK', 13.8], // zákon 283/2002 (from 2025-12-01): 12–18 h → 13.80 €
      ['PL', 45], // rozporządzenie 2013: trip ≤ 24 h, > 12 h → 100 % of 45 zł
      ['HR', 30], // Pravilnik NN 143/2023: > 12 h → 30 €
      ['SI', 27.81], // Uredba (UL 140/2006 … 162/2022, from 2023-01-01): > 12–24 h → 27.81 €
    ] as const)('%s: the calculator and from-itinerary agree on a domestic day', async (market, amount) => {
      const t = await stack.tenant(market);
      const stops = [
        { time: '2026-11-02T05:00:00Z', countryCode: market },
        { time: '2026-11-02T21:00:00Z', countryCode: market },
      ];
      const e = await entry(t.api);
      const calc = await t.api.post(CALCULATE, { stops });
      const res = await t.api.post(fromItinerary(e.id), { stops });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ total: amount, complete: true });
      expect(res.body.items).toEqual([
        expect.objectContaining({
          countryCode: market,
          departureTime: '2026-11-02T05:00:00Z',
          arrivalTime: '2026-11-02T21:00:00Z',
          hours: 16,
          amount,
          amountInBaseCurrency: amount,
          band: calc.body.items[0].band,
        }),
      ]);
      expect(calc.body.total).toBe(amount);
    });

    it('a multi-day trip across the spring change is cut in elapsed hours (HR, Pravilnik NN 143/2023)', async () => {
      // 28 Mar 2026 08:00 CET (07:00Z) → 29 Mar 16:30 CEST (14:30Z): 31.5 h elapsed = one 24-hour block
      // (> 12 h → 30 €) and 7.5 h (below the 8–12 h band → 0 €). The wall clock would say 32.5 h.
      const e = await entry(hr, { departureDate: '2026-03-28', returnDate: '2026-03-29' });
      const res = await hr.post(fromItinerary(e.id), {
        stops: [
          { time: '2026-03-28T07:00:00Z', countryCode: 'HR' },
          { time: '2026-03-29T14:30:00Z', countryCode: 'HR' },
        ],
      });
      expect(res.status).toBe(200);
      expect(
        res.body.items.map((r: Record<string, unknown>) => [r.departureTime, r.arrivalTime, r.hours, r.amount]),
      ).toEqual([
        ['2026-03-28T07:00:00Z', '2026-03-29T07:00:00Z', 24, 30],
        ['2026-03-29T07:00:00Z', '2026-03-29T14:30:00Z', 7.5, 0],
      ]);
      expect(res.body.total).toBe(30);
      // One night in Zagreb inside the first row: one deprecated `false`.
      expect(res.body.items[0].nightOffWindowOverride).toEqual([false]);
    });

    it('applies meals keyed by (countryCode, departureTime) as the calculator returns them', async () => {
      const e = await entry(pl, { departureDate: '2026-11-03', returnDate: '2026-11-04' });
      // PL foreign meal reduction: lunch 30 % of the 57 EUR rate = 17.10 → 39.90 EUR.
      const meals = [{ countryCode: 'AT', departureTime: '2026-11-03T08:00:00', lunchesProvided: 1 }];
      const res = await pl.post(fromItinerary(e.id), { stops: PL_VIENNA, meals });
      expect(res.status).toBe(200);
      expect(res.body.items[1]).toMatchObject({ amount: 39.9, lunchesProvided: 1, mealsProvided: 1 });
      // 39.90 × 4.2558 = 169.80642 → 169.81 zł
      expect(res.body.items[1].amountInBaseCurrency).toBe(169.81);
      const calc = await pl.post(CALCULATE, { stops: PL_VIENNA, meals });
      expect(calc.body.total).toBe(res.body.total);
      // A meal naming no row is refused, keyed by the request's field.
      const bad = await pl.post(fromItinerary(e.id), {
        stops: PL_VIENNA,
        meals: [{ countryCode: 'DE', departureTime: '2026-11-03T08:00:00', lunchesProvided: 1 }],
      });
      expect(bad.status).toBe(400);
      expect(bad.body.errors['meals[0]']).toBeDefined();
    });

    it('a locked entry is 409, another tenant 404, another employee of the entry 400', async () => {
      const e = await entry(hr);
      expect((await pl.post(fromItinerary(e.id), { stops: PL_VIENNA })).status).toBe(404);
      const other = await hr.post(fromItinerary(e.id), {
        stops: [domesticRow('HR')].flatMap((r) => [
          { time: r.departureTime, countryCode: 'HR' },
          { time: r.arrivalTime, countryCode: 'HR' },
        ]),
        employeeId: '00000000-0000-4000-8000-000000000001',
      });
      expect(other.status).toBe(400);
      expect(other.body.errors.employeeId).toBeDefined();
      const Entry = registerModels(stack.entries.deps.mongo).Entry;
      await Entry.updateOne({ _id: e.id }, { $set: { status: 1 } }, TEST_PROBE);
      const locked = await hr.post(fromItinerary(e.id), {
        stops: [
          { time: '2026-11-02T05:00:00Z', countryCode: 'HR' },
          { time: '2026-11-02T21:00:00Z', countryCode: 'HR' },
        ],
      });
      expect(locked.status).toBe(409);
    });
  });

  describe('rows nested on the create, and the PUT', () => {
    it('per-meal counts, legacy mealsProvided and the override (HR, Pravilnik NN 143/2023)', async () => {
      // > 12 h → 30 €; one of lunch/dinner −30 % → 21 €; both −60 % → 12 €.
      const lunch = await entry(hr, { perDiems: [domesticRow('HR', { lunchesProvided: 1 })] });
      expect(lunch.perDiems).toHaveLength(1);
      expect(lunch.perDiems[0]).toMatchObject({
        amount: 21,
        grossAmount: 30,
        amountInBaseCurrency: 21,
        lunchesProvided: 1,
        dinnersProvided: 0,
        mealsProvided: 1,
        taxTreatment: 'TaxFreeCap',
      });
      // Legacy aggregate 2, no per-meal fields: lunch + dinner (docs/decisions/0071) → 12 €.
      const legacy = await entry(hr, { perDiems: [domesticRow('HR', { mealsProvided: 2 })] });
      expect(legacy.perDiems[0]).toMatchObject({
        amount: 12,
        lunchesProvided: 1,
        dinnersProvided: 1,
        mealsProvided: 2,
      });
      // Override 40 €: the statutory 30 € stays on the row, the excess 10 € separately, 40 € payable.
      const over = await entry(hr, {
        perDiems: [domesticRow('HR', { overrideAmount: 40, overrideReason: 'Collective agreement' })],
      });
      expect(over.perDiems[0]).toMatchObject({
        amount: 30,
        overrideAmount: 40,
        overrideReason: 'Collective agreement',
        excessAmount: 10,
        payableAmount: 40,
        amountInBaseCurrency: 40,
      });
      expect(over.perDiemTotal).toBe(40);

      // A GET body PUT back is a no-op (same editedAt), and keeps the rows.
      const got = (await hr.get(`${ENTRIES}/${over.id}`)).body;
      const echo = await hr.put(`${ENTRIES}/${over.id}`, got);
      expect(echo.status).toBe(200);
      expect(echo.body.editedAt).toBe(got.editedAt);
      expect(echo.body.perDiems).toEqual(got.perDiems);
      // A PUT without perDiems keeps them.
      const { perDiems: _omitted, ...withoutRows } = got;
      const kept = await hr.put(`${ENTRIES}/${over.id}`, { ...withoutRows, purpose: 'Audit' });
      expect(kept.status).toBe(200);
      expect(kept.body.perDiems).toEqual(got.perDiems);
      // A full replace of the row omitting the override clears it: back to the statutory 30 €.
      const { overrideAmount: _a, overrideReason: _r, ...row } = got.perDiems[0];
      const cleared = await hr.put(`${ENTRIES}/${over.id}`, { ...got, perDiems: [row] });
      expect(cleared.status).toBe(200);
      expect(cleared.body.perDiems[0]).toMatchObject({
        amount: 30,
        overrideAmount: null,
        overrideReason: null,
        excessAmount: null,
        payableAmount: 30,
        amountInBaseCurrency: 30,
      });
      expect(cleared.body.editedAt).not.toBe(got.editedAt);
    });

    it('mealsProvidedAllocation and a short night; bad rows are field-keyed 400s', async () => {
      // SK, zákon 283/2002: 12–18 h → 13.80 €; lunch −40 % of the >18 h 20.60 € = 8.24 → 5.56 €.
      const sk = (await stack.tenant('SK')).api;
      const e = await entry(sk, {
        perDiems: [
          domesticRow('SK', {
            mealsProvidedAllocation: [{ date: '2026-11-02', lunchesProvided: 1 }],
            nightAllocation: { date: '2026-11-02', hours: 1 },
          }),
        ],
      });
      expect(e.perDiems[0]).toMatchObject({
        amount: 5.56,
        lunchesProvided: 1,
        mealsProvidedAllocation: [
          { date: '2026-11-02', breakfastsProvided: 0, lunchesProvided: 1, dinnersProvided: 0 },
        ],
        nightAllocation: { date: '2026-11-02', hours: 1 },
        nightAllocationAmount: 0,
        amountInBaseCurrency: 5.56,
      });
      const bad = await sk.post(ENTRIES, {
        departureDate: '2026-11-02',
        returnDate: '2026-11-02',
        perDiems: [
          domesticRow('SK', {
            lunchesProvided: 2,
            mealsProvidedAllocation: [{ date: '2026-11-05', lunchesProvided: 1 }],
            overrideAmount: 10,
          }),
        ],
      });
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body.errors).sort()).toEqual([
        'perDiems[0].mealsProvidedAllocation',
        'perDiems[0].mealsProvidedAllocation[0].date',
        'perDiems[0].overrideReason',
      ]);
      const night = await sk.post(ENTRIES, {
        departureDate: '2026-11-02',
        returnDate: '2026-11-02',
        perDiems: [domesticRow('SK', { nightAllocation: { date: '2026-11-02', hours: 7 } })],
      });
      expect(night.status).toBe(400);
    });

    it('the create is atomic: a row that is not a row of its itinerary creates nothing and raises nothing', async () => {
      const api = (await stack.tenant('HR')).api;
      const receiver = await stack.receiver();
      const sub = await api.post('/api/v1/webhooks', { url: receiver.url, eventTypes: ['entry.created'] });
      expect(sub.status).toBe(201);
      // 30 h in Croatia is a 24 h block and a 6 h remainder: one 30-hour row is not the engine's row.
      const refused = await api.post(ENTRIES, {
        departureDate: '2026-11-02',
        returnDate: '2026-11-03',
        perDiems: [domesticRow('HR', { arrivalTime: '2026-11-03T11:00:00Z' })],
      });
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toHaveProperty(['perDiems[0].arrivalTime']);
      const gap = await api.post(ENTRIES, {
        departureDate: '2026-11-02',
        returnDate: '2026-11-03',
        perDiems: [
          domesticRow('HR'),
          domesticRow('HR', { departureTime: '2026-11-03T05:00:00Z', arrivalTime: '2026-11-03T09:00:00Z' }),
        ],
      });
      expect(gap.status).toBe(400);
      expect(gap.body.errors.perDiems).toBeDefined();
      expect((await api.get(ENTRIES)).body.total).toBe(0);
      const marker = await entry(api);
      await eventually(async () => receiver.requests.some((r) => r.body.toString('utf8').includes(marker.id)));
      expect(receiver.requests).toHaveLength(1);
    });

    it('a foreign row: the rows of from-itinerary posted back price the same; the manual-rate rule applies', async () => {
      const e = await entry(pl, { departureDate: '2026-11-03', returnDate: '2026-11-04' });
      const rows = (await pl.post(fromItinerary(e.id), { stops: PL_VIENNA })).body.items;
      const copy = await entry(pl, { departureDate: '2026-11-03', returnDate: '2026-11-04', perDiems: rows });
      expect(copy.perDiems).toEqual(rows);
      // NBP publishes EUR on 2026-11-03: a manual rate is refused (SPEC, manual-rate rule).
      const manual = await pl.post(ENTRIES, {
        departureDate: '2026-11-03',
        returnDate: '2026-11-04',
        perDiems: rows.map((r: Record<string, unknown>, i: number) =>
          i === 1 ? { ...r, manualExchangeRate: 4.3 } : r,
        ),
      });
      expect(manual.status).toBe(400);
      expect(manual.body.code).toBe('EXCHANGE_RATE_UNAVAILABLE');
      expect(manual.body.errors['perDiems[1].manualExchangeRate']).toBeDefined();
    });

    it('no published rate: the row waits for a manual rate, which is then honoured (source MANUAL)', async () => {
      // The recorded NBP feed starts on 2026-10-26: nothing is published on or before 2026-10-01.
      const early = PL_VIENNA.map((s) => ({ ...s, time: s.time.replace('2026-11-03', '2026-10-01') }));
      const e = await entry(pl, { departureDate: '2026-10-01', returnDate: '2026-10-01' });
      const res = await pl.post(fromItinerary(e.id), { stops: early });
      expect(res.status).toBe(200);
      expect(res.body.items[1]).toMatchObject({ countryCode: 'AT', amount: 57, amountInBaseCurrency: null });
      expect(res.body.items[1].reason).toContain('manualExchangeRate');
      expect(res.body).toMatchObject({ total: null, complete: false });
      const got = (await pl.get(`${ENTRIES}/${e.id}`)).body;
      const rows = got.perDiems.map((r: Record<string, unknown>, i: number) =>
        i === 1 ? { ...r, manualExchangeRate: 4.3 } : r,
      );
      const put = await pl.put(`${ENTRIES}/${e.id}`, { ...got, perDiems: rows });
      expect(put.status).toBe(200);
      // 57 EUR × 4.30 (manual) = 245.10 zł
      expect(put.body.perDiems[1]).toMatchObject({
        manualExchangeRate: 4.3,
        exchangeRateSource: 'MANUAL',
        amountInBaseCurrency: 245.1,
        reason: null,
      });
      expect(put.body.perDiemTotal).toBe(245.1);
      // perDiems: [] removes every row.
      const none = await pl.put(`${ENTRIES}/${e.id}`, { ...put.body, perDiems: [] });
      expect(none.status).toBe(200);
      expect(none.body).toMatchObject({ perDiems: [], perDiemTotal: 0 });
    });

    it('a CZ trip abroad has a per-diem total: Austria ⅓ × 45 € converted on the advancePaymentDate (CNB)', async () => {
      // CZ: Prague 06:00 → Austria 10:00–19:00 → home 20:00 (2 Nov 2026). Home 5 h (5–12 h) → 155 Kč
      // (vyhl. 573/2025); Austria 9 h (1–12 h, §170(1)) → ⅓ × 45 € (vyhl. 489/2025 Sb.) = 15.00 €;
      // CNB 2 Nov 2026 EUR 24.240 → 363.60 Kč. Total 155 + 363.60 = 518.60 Kč.
      const stops = [
        { time: '2026-11-02T05:00:00Z', countryCode: 'CZ' },
        { time: '2026-11-02T09:00:00Z', countryCode: 'AT' },
        { time: '2026-11-02T18:00:00Z', countryCode: 'CZ' },
        { time: '2026-11-02T19:00:00Z', countryCode: 'CZ' },
      ];
      const e = await entry(cz, { advancePaymentDate: '2026-11-02' });
      const res = await cz.post(fromItinerary(e.id), { stops });
      expect(res.status).toBe(200);
      expect(res.body.items[0]).toMatchObject({ countryCode: 'CZ', amount: 155, amountInBaseCurrency: 155 });
      expect(res.body.items[1]).toMatchObject({
        countryCode: 'AT',
        band: '1-12h',
        amount: 15,
        currencyCode: 'EUR',
        amountInBaseCurrency: 363.6,
        exchangeRateSource: 'CNB',
      });
      expect(res.body.items[1].source.act).toContain('489/2025');
      expect(res.body).toMatchObject({ total: 518.6, complete: true });
      // An override is in the row's currency: 20 € × 24.240 = 484.80 Kč; total 639.80 Kč.
      const got = (await cz.get(`${ENTRIES}/${e.id}`)).body;
      expect(got.perDiemTotal).toBe(518.6);
      const rows = got.perDiems.map((r: Record<string, unknown>) =>
        r.countryCode === 'AT' ? { ...r, overrideAmount: 20, overrideReason: 'Company rate for Austria' } : r,
      );
      const put = await cz.put(`${ENTRIES}/${e.id}`, { ...got, perDiems: rows });
      expect(put.status).toBe(200);
      expect(put.body.perDiems[1]).toMatchObject({ amount: 15, payableAmount: 20, amountInBaseCurrency: 484.8 });
      expect(put.body.perDiemTotal).toBe(639.8);
    });

    it('an HR rate the research has not read (Germany) is unknown: the row says so; an override pays it', async () => {
      const stops = [
        { time: '2026-11-02T05:00:00Z', countryCode: 'HR' },
        { time: '2026-11-02T06:00:00Z', countryCode: 'DE' },
        { time: '2026-11-02T20:00:00Z', countryCode: 'HR' },
        { time: '2026-11-02T21:00:00Z', countryCode: 'HR' },
      ];
      const e = await entry(hr);
      const res = await hr.post(fromItinerary(e.id), { stops });
      expect(res.status).toBe(200);
      const de = res.body.items.findIndex((r: Record<string, unknown>) => r.countryCode === 'DE');
      expect(res.body.items[de]).toMatchObject({ countryCode: 'DE', amount: null, amountInBaseCurrency: null });
      expect(res.body.items[de].reason).toEqual(expect.stringContaining('unread'));
      expect(res.body).toMatchObject({ total: null, complete: false });
      const got = (await hr.get(`${ENTRIES}/${e.id}`)).body;
      const rows = got.perDiems.map((r: Record<string, unknown>) =>
        r.countryCode === 'DE' ? { ...r, overrideAmount: 70, overrideReason: 'Company rate for Germany' } : r,
      );
      const put = await hr.put(`${ENTRIES}/${e.id}`, { ...got, perDiems: rows });
      expect(put.status).toBe(200);
      expect(put.body.perDiems[de]).toMatchObject({ amount: null, payableAmount: 70, amountInBaseCurrency: 70 });
      const others = put.body.perDiems
        .filter((r: Record<string, unknown>) => r.countryCode !== 'DE')
        .reduce((sum: number, r: { amountInBaseCurrency: number }) => sum + r.amountInBaseCurrency, 0);
      expect(put.body.perDiemTotal).toBe(others + 70);
    });
  });

  describe('amount allocations follow the entry total (issue 12)', () => {
    it('an expense or per-diem change that breaks amount allocations is 409 CONFLICT; percentages follow', async () => {
      const cc = await costCenter(cz);
      // CZ 16 h domestic day: > 12–18 h → 236 Kč; with a 500 Kč parking the whole is 736 Kč.
      const e = await entry(cz, {
        perDiems: [domesticRow('CZ')],
        expenses: [{ kind: 'Parking', date: '2026-11-02', amount: 500, currencyCode: 'CZK' }],
        costCenterAllocations: [{ costCenterId: cc, amount: 736 }],
      });
      expect(e.perDiemTotal).toBe(236);
      expect(e.expenseTotal).toBe(500);
      // Amounts that cover only the expenses are refused.
      const short = await cz.put(`${ENTRIES}/${e.id}`, {
        ...e,
        costCenterAllocations: [{ costCenterId: cc, amount: 500 }],
      });
      expect(short.status).toBe(400);
      expect(short.body.errors.costCenterAllocations[0]).toContain('736.00');

      const add = await cz.post(`${ENTRIES}/${e.id}/expenses`, {
        kind: 'Toll',
        date: '2026-11-02',
        amount: 100,
        currencyCode: 'CZK',
      });
      expect(add.status).toBe(409);
      expect(add.body.code).toBe('CONFLICT');
      expect(add.body.errors.costCenterAllocations[0]).toContain('836.00');
      const del = await cz.delete(`${ENTRIES}/${e.id}/expenses/${e.expenses[0].id}`);
      expect(del.status).toBe(409);
      const rebuilt = await cz.post(fromItinerary(e.id), {
        stops: [
          { time: '2026-11-02T05:00:00Z', countryCode: 'CZ' },
          { time: '2026-11-02T15:00:00Z', countryCode: 'CZ' },
        ],
      });
      expect(rebuilt.status).toBe(409);
      expect(rebuilt.body.errors.costCenterAllocations).toBeDefined();
      const still = (await cz.get(`${ENTRIES}/${e.id}`)).body;
      expect(still.expenses).toHaveLength(1);
      expect(still.perDiemTotal).toBe(236);
      expect(still.editedAt).toBe(e.editedAt);

      // With percentages the split follows any total.
      const pct = await cz.put(`${ENTRIES}/${e.id}`, {
        ...still,
        costCenterAllocations: [{ costCenterId: cc, percentage: 100 }],
      });
      expect(pct.status).toBe(200);
      expect(
        (
          await cz.post(`${ENTRIES}/${e.id}/expenses`, {
            kind: 'Toll',
            date: '2026-11-02',
            amount: 100,
            currencyCode: 'CZK',
          })
        ).status,
      ).toBe(201);
      // 10 h at home: 5–12 h → 155 Kč.
      const again = await cz.post(fromItinerary(e.id), {
        stops: [
          { time: '2026-11-02T05:00:00Z', countryCode: 'CZ' },
          { time: '2026-11-02T15:00:00Z', countryCode: 'CZ' },
        ],
      });
      expect(again.status).toBe(200);
      expect(again.body.total).toBe(155);
    });
  });
});
