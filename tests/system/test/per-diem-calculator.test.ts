// The stateless per-diem calculator through the gateway (issue 14; SPEC "Utilities"; API-SURFACE
// "Per-diem calculator and itinerary rows"). Expected figures are computed by hand from
// ../shared/research/REGULATIONS.md (the 2026 tables), not from the engine; times in the answer are the
// market's wall clock (SPEC: "times echoed as wall-clock in this preview"). All trips are in November 2026:
// CET (UTC+1) in Prague, Bratislava, Warsaw, Zagreb and Ljubljana.
import type { Market } from '@travel/platform';
import { startPerDiemStack, type PerDiemStack } from './support/per-diem-stack';

const CALCULATE = '/api/v1/utilities/per-diems/calculate';

/** A one-day domestic trip: 06:00–22:00 local (05:00Z–21:00Z), 16 hours, in the market's own country. */
const domesticDay = (market: Market) => [
  { time: '2026-11-02T05:00:00Z', countryCode: market },
  { time: '2026-11-02T21:00:00Z', countryCode: market },
];

describe('POST /api/v1/utilities/per-diems/calculate through the gateway', () => {
  let stack: PerDiemStack;

  beforeAll(async () => {
    stack = await startPerDiemStack('per-diem-calculator');
  });
  afterAll(async () => {
    await stack?.stop();
  });

  // One worked example per market: a 16-hour domestic day, no meals.
  it.each([
    // CZ, §163 and vyhl. 573/2025 Sb.: >12–18 h → 236 Kč.
    ['CZ', '>12-18h', 236, 'CZK'],
    // SK, zákon 283/2002 (from 2025-12-01): 12–18 h → 13.80 €.
    ['SK', '>12-18h', 13.8, 'EUR'],
    // PL, rozporządzenie 2013 (Dz.U. 2023 poz. 2190): trip ≤ 24 h, > 12 h → 100 % of 45 zł = 45 zł.
    ['PL', null, 45, 'PLN'],
    // HR, Pravilnik NN 143/2023: > 12 h → 30 €.
    ['HR', null, 30, 'EUR'],
    // SI, Uredba (UL 140/2006 … 162/2022, from 2023-01-01): > 12–24 h → 27.81 €.
    ['SI', null, 27.81, 'EUR'],
  ] as const)('%s: a 16-hour domestic day', async (market, band, amount, currency) => {
    const t = await stack.tenant(market);
    const res = await t.api.post(CALCULATE, { stops: domesticDay(market), employeeId: t.employeeId });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      items: [
        expect.objectContaining({
          countryCode: market,
          departureTime: '2026-11-02T06:00:00',
          arrivalTime: '2026-11-02T22:00:00',
          hours: 16,
          amount,
          currencyCode: currency,
          amountInBaseCurrency: amount,
          exchangeRateSource: null,
          breakfastsProvided: 0,
          lunchesProvided: 0,
          dinnersProvided: 0,
          source: expect.objectContaining({ act: expect.any(String) }),
          reason: null,
          warnings: [],
        }),
      ],
      total: amount,
      currencyCode: currency,
      complete: true,
    });
    if (band) expect(res.body.items[0].band).toBe(band);
  });

  it("with employeeId, the employee's residency applies (SI: no verified tax-free rule for non-residents)", async () => {
    const si = await stack.tenant('SI');
    const created = await si.api.post('/api/v1/employees', {
      firstName: 'Ana',
      lastName: 'Novak',
      residency: 'NonResident',
    });
    expect(created.status).toBe(201);
    const res = await si.api.post(CALCULATE, { stops: domesticDay('SI'), employeeId: created.body.id });
    expect(res.status).toBe(200);
    // The statutory amount is the same (27.81 €); the row says its tax treatment is not known (ZDoh-2 Art. 17).
    expect(res.body.items[0]).toMatchObject({ amount: 27.81, warnings: [expect.stringContaining('non-residents')] });
    const resident = await si.api.post(CALCULATE, { stops: domesticDay('SI'), employeeId: si.employeeId });
    expect(resident.body.items[0].warnings).toEqual([]);
  });

  it('with employeeId, an SK mobile road-transport worker gets the rates of opatrenie 9/2026 Z. z.', async () => {
    // SK, 3 Nov 2026: Bratislava 06:00 → Austria 08:00–22:00 (14 h, over 12 h: 100 %) → home 23:00.
    // Anyone: 45 € (opatrenie 401/2012); a mobile road-transport worker: 63 € (9/2026, from 2026-01-30).
    const sk = await stack.tenant('SK');
    const driver = await sk.api.post('/api/v1/employees', {
      firstName: 'Ján',
      lastName: 'Kováč',
      mobileRoadTransportWorker: true,
    });
    expect(driver.status).toBe(201);
    expect(driver.body.mobileRoadTransportWorker).toBe(true);
    const stops = [
      { time: '2026-11-03T05:00:00Z', countryCode: 'SK' },
      { time: '2026-11-03T07:00:00Z', countryCode: 'AT' },
      { time: '2026-11-03T21:00:00Z', countryCode: 'SK' },
      { time: '2026-11-03T22:00:00Z', countryCode: 'SK' },
    ];
    const at = (body: { items: { countryCode: string }[] }) => body.items.find((r) => r.countryCode === 'AT');
    const res = await sk.api.post(CALCULATE, { stops, employeeId: driver.body.id });
    expect(res.status).toBe(200);
    expect(at(res.body)).toMatchObject({ amount: 63, currencyCode: 'EUR', amountInBaseCurrency: 63 });
    expect(res.body.total).toBe(63);
    const anyone = await sk.api.post(CALCULATE, { stops, employeeId: sk.employeeId });
    expect(at(anyone.body)).toMatchObject({ amount: 45, amountInBaseCurrency: 45 });
    expect((await sk.api.post(CALCULATE, { stops })).body.total).toBe(45);
  });

  it('meals reduce a row, keyed by the wall-clock departure the calculator echoes', async () => {
    // SK: lunch −40 % of the > 18 h amount (20.60 × 0.40 = 8.24): 13.80 − 8.24 = 5.56 €.
    const sk = await stack.tenant('SK');
    const meals = [{ countryCode: 'SK', departureTime: '2026-11-02T06:00:00', lunchesProvided: 1 }];
    const res = await sk.api.post(CALCULATE, { stops: domesticDay('SK'), meals });
    expect(res.status).toBe(200);
    expect(res.body.items[0]).toMatchObject({ amount: 5.56, amountInBaseCurrency: 5.56, lunchesProvided: 1 });
    expect(res.body.total).toBe(5.56);
    // HR: one meal (lunch) −30 % of 30 €: 30 − 9 = 21 €.
    const hr = await stack.tenant('HR');
    const hrMeals = [{ countryCode: 'HR', departureTime: '2026-11-02T06:00:00', lunchesProvided: 1 }];
    const hrRes = await hr.api.post(CALCULATE, { stops: domesticDay('HR'), meals: hrMeals });
    expect(hrRes.status).toBe(200);
    expect(hrRes.body.items[0]).toMatchObject({ amount: 21, lunchesProvided: 1 });
    expect(hrRes.body.total).toBe(21);
  });

  it('a foreign trip is converted into the base currency with the provider of the market (PL, NBP)', async () => {
    // PL tenant, Warsaw 06:00 → Austria 08:00–22:00 (14 h abroad) → home 00:00 on 2026-11-04.
    // Foreign (annex): Austria 57 EUR per day; an incomplete day > 12 h is 100 % → 57 EUR.
    // FX (decision 0056): NBP table A of the trip's start date, 2026-11-03: EUR mid 4.2558 PLN.
    // 57 × 4.2558 = 242.5806 → 242.58 PLN.
    const pl = await stack.tenant('PL');
    const res = await pl.api.post(CALCULATE, {
      stops: [
        { time: '2026-11-03T05:00:00Z', countryCode: 'PL' },
        { time: '2026-11-03T07:00:00Z', countryCode: 'AT' },
        { time: '2026-11-03T21:00:00Z', countryCode: 'PL' },
        { time: '2026-11-03T23:00:00Z', countryCode: 'PL' },
      ],
    });
    expect(res.status).toBe(200);
    const at = res.body.items.find((r: { countryCode: string }) => r.countryCode === 'AT');
    expect(at).toMatchObject({
      departureTime: '2026-11-03T08:00:00',
      arrivalTime: '2026-11-03T22:00:00',
      hours: 14,
      amount: 57,
      currencyCode: 'EUR',
      amountInBaseCurrency: 242.58,
      exchangeRateSource: 'NBP',
      reason: null,
    });
    expect(res.body.currencyCode).toBe('PLN');
    expect(res.body.complete).toBe(true);
    // total = Σ amountInBaseCurrency over the rows.
    const sum = res.body.items.reduce(
      (s: number, r: { amountInBaseCurrency: number }) => s + Math.round(r.amountInBaseCurrency * 100),
      0,
    );
    expect(Math.round(res.body.total * 100)).toBe(sum);
  });

  it('a CZ trip to Germany is priced: ⅔ × 50 € converted with CNB on the trip date', async () => {
    // CZ, 3 Nov 2026: Prague 06:00 → Germany 08:00–22:00 → home 23:00. Home 2 h + 1 h = 3 h (under 5 h) → 0 Kč.
    // Germany 14 h: more than 12 up to 18 h → ⅔ of 50 € (vyhl. 489/2025 Sb.) = 33.33 €; CNB 3 Nov 2026 EUR
    // 24.297 → 33.33 × 24.297 = 809.819… → 809.82 Kč (decision 0056: the trip's start date).
    const cz = await stack.tenant('CZ');
    const res = await cz.api.post(CALCULATE, {
      stops: [
        { time: '2026-11-03T05:00:00Z', countryCode: 'CZ' },
        { time: '2026-11-03T07:00:00Z', countryCode: 'DE' },
        { time: '2026-11-03T21:00:00Z', countryCode: 'CZ' },
        { time: '2026-11-03T22:00:00Z', countryCode: 'CZ' },
      ],
    });
    expect(res.status).toBe(200);
    const de = res.body.items.find((r: { countryCode: string }) => r.countryCode === 'DE');
    expect(de).toMatchObject({
      hours: 14,
      amount: 33.33,
      currencyCode: 'EUR',
      amountInBaseCurrency: 809.82,
      exchangeRateSource: 'CNB',
      reason: null,
    });
    expect(res.body).toMatchObject({ total: 809.82, complete: true, currencyCode: 'CZK' });
  });

  it('an unknown rate is answered honestly: the row says why, the total is null, never a guess', async () => {
    // HR foreign dnevnica for Germany: the row of Odluka NN 16/24 is unread (research/foreign/HR.md), so the
    // 14 hours there have no statutory amount, and never the 50 USD of unlisted countries.
    const hr = await stack.tenant('HR');
    const res = await hr.api.post(CALCULATE, {
      stops: [
        { time: '2026-11-03T05:00:00Z', countryCode: 'HR' },
        { time: '2026-11-03T07:00:00Z', countryCode: 'DE' },
        { time: '2026-11-03T21:00:00Z', countryCode: 'HR' },
        { time: '2026-11-03T22:00:00Z', countryCode: 'HR' },
      ],
    });
    expect(res.status).toBe(200);
    const de = res.body.items.find((r: { countryCode: string }) => r.countryCode === 'DE');
    expect(de).toMatchObject({ amount: null, amountInBaseCurrency: null, reason: expect.stringContaining('unread') });
    expect(res.body).toMatchObject({ total: null, complete: false, currencyCode: 'EUR' });
  });

  it('bad input is 400 VALIDATION_FAILED with field-keyed errors, never 500', async () => {
    const t = await stack.tenant('CZ');
    // Stops out of time order: the engine's field error.
    const backwards = await t.api.post(CALCULATE, {
      stops: [
        { time: '2026-11-02T21:00:00Z', countryCode: 'CZ' },
        { time: '2026-11-02T05:00:00Z', countryCode: 'CZ' },
      ],
    });
    expect(backwards.status).toBe(400);
    expect(backwards.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: { 'stops[1].time': expect.any(Array) } });
    // Meals naming no row.
    const stray = await t.api.post(CALCULATE, {
      stops: domesticDay('CZ'),
      meals: [{ countryCode: 'DE', departureTime: '2026-11-02T06:00:00', lunchesProvided: 1 }],
    });
    expect(stray.status).toBe(400);
    expect(stray.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: { 'meals[0]': expect.any(Array) } });
    // One stop only: the contract (minItems 2).
    const single = await t.api.post(CALCULATE, { stops: [{ time: '2026-11-02T05:00:00Z', countryCode: 'CZ' }] });
    expect(single.status).toBe(400);
    expect(single.body.code).toBe('VALIDATION_FAILED');
    // An employee outside the company.
    const stranger = await t.api.post(CALCULATE, {
      stops: domesticDay('CZ'),
      employeeId: '0b3e0f0e-0000-4000-8000-000000000001',
    });
    expect(stranger.status).toBe(400);
    expect(stranger.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: { employeeId: expect.any(Array) } });
    // Not an id at all (the API fuzz found a 503 here: the employees service refused the path).
    const notAnId = await t.api.post(CALCULATE, { stops: domesticDay('CZ'), employeeId: 'iÃH#;ç£t' });
    expect(notAnId.status).toBe(400);
    expect(notAnId.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: { employeeId: expect.any(Array) } });
  });

  it.each([
    ['/api/v1/travel-entries/0b3e0f0e-0000-4000-8000-000000000001/per-diems/compute', 'from-itinerary'],
    ['/api/v1/per-diems/calculate-simple', 'POST /api/v1/utilities/per-diems/calculate'],
  ])('the removed POST %s is 410 Gone, naming its replacement', async (path, replacement) => {
    const t = await stack.tenant('CZ');
    const res = await t.api.post(path, {});
    expect(res.status).toBe(410);
    expect(res.body).toMatchObject({ code: 'GONE', status: 410, detail: expect.stringContaining(replacement) });
  });
});
