// What a full-replace PUT does with each field it omits, field by field, as ../shared/SPEC.md words it
// (issue 42). The rule: "Update of a travel entry is a full replace: omitted optional fields are cleared
// unless stated otherwise per field above" (Endpoints, Travel entries, rule 1; the expense PUT is "update
// one expense (full replace)"). The exceptions the spec states: place ids are echoed to preserve them;
// per-diem `overrideAmount`/`overrideReason` omitted clear the override; expense `fuelUnitPriceOverride` and
// `mileagePetrolGrade` omitted re-price with the average (95 grade); vehicle `category`,
// `engineCapacityCc`, `enginePowerKw` omitted keep their values; employee `costCenterIds` omitted keeps the
// list. A required field omitted is a documented 400, never a 500. Each test takes a GET body (a valid PUT
// body), leaves one field out and reads what the PUT answers and what a GET then returns.
import { costCenter, employee, unique } from '@travel/employees/test/support/org-fixtures';
import type { ApiClient } from '@travel/testkit';
import { startEntriesStack, type EntriesStack } from './support/entries-stack';

const ENTRIES = '/api/v1/travel-entries';
const TRIP = { departureDate: '2026-11-19', returnDate: '2026-11-20' };
/** The recorded provider feeds start on 2026-10-26: nothing is published for 2026-10-01. */
const UNPUBLISHED = '2026-10-01';

type Body = Record<string, any>;
const without = (body: Body, ...fields: string[]): Body =>
  Object.fromEntries(Object.entries(body).filter(([k]) => !fields.includes(k)));

describe('full-replace PUT: each omitted field as the spec says', () => {
  let stack: EntriesStack;
  let cz: ApiClient;
  let hr: ApiClient;
  let pl: ApiClient;
  let sk: ApiClient;

  beforeAll(async () => {
    stack = await startEntriesStack('full-replace-fields', {}, { fleet: true });
    cz = (await stack.tenant('CZ')).api;
    hr = (await stack.tenant('HR')).api;
    pl = (await stack.tenant('PL')).api;
    sk = (await stack.tenant('SK')).api;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const ok = async (res: { status: number; text: string; body: any }, status = 200) => {
    if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${res.text}`);
    return res.body;
  };

  /** PUTs the GET body of `url` without `fields` (and with `extra`), and returns the answer, checked against a GET. */
  async function putWithout(api: ApiClient, url: string, fields: string[], extra: Body = {}) {
    const got = await ok(await api.get(url));
    const res = await api.put(url, { ...without(got, ...fields), ...extra });
    if (res.status === 200) expect(await ok(await api.get(url))).toEqual(res.body);
    return { got, res };
  }

  describe('travel entry (SPEC: Travel entries rule 1, "Travel entry (pull API fields known)")', () => {
    /** A CZ entry with every optional field of its own set. */
    async function fullEntry(api = cz, extra: Body = {}) {
      const cc = await costCenter(api);
      return ok(
        await api.post(ENTRIES, {
          ...TRIP,
          travelType: 'Foreign',
          destination: 'Wien',
          purpose: 'Audit',
          description: 'Yearly audit at the branch',
          report: 'Done',
          departureLocationPlaceId: 'place-home',
          destinationPlaceId: 'place-vienna',
          destinationCountryCode: 'DE',
          advancePayment: 200,
          currencyCode: 'EUR',
          advancePaymentDate: '2026-11-18',
          costCenterAllocations: [{ costCenterId: cc, percentage: 100 }],
          ...extra,
        }),
        201,
      );
    }
    const url = (e: Body) => `${ENTRIES}/${e.id}`;

    it.each(['destination', 'purpose', 'description', 'report'])(
      '%s: optional, omitted is cleared (null)',
      async (field) => {
        const e = await fullEntry();
        expect(e[field]).not.toBeNull();
        const { res } = await putWithout(cz, url(e), [field]);
        expect(res.status).toBe(200);
        expect(res.body[field]).toBeNull();
      },
    );

    it.each(['departureLocationPlaceId', 'destinationPlaceId'])(
      '%s: "echo stored values to preserve place identity": echoed kept, omitted cleared',
      async (field) => {
        const e = await fullEntry();
        const echoed = await ok(await cz.put(url(e), { ...e, purpose: 'Echoed' }));
        expect(echoed[field]).toBe(e[field]);
        const { res } = await putWithout(cz, url(e), [field]);
        expect(res.status).toBe(200);
        expect(res.body[field]).toBeNull();
      },
    );

    it('destinationCountryCode: optional, no exception stated: omitted is cleared and the fallback derives it (issue 42)', async () => {
      const e = await fullEntry();
      expect(e.destinationCountryCode).toBe('DE');
      const { res } = await putWithout(cz, url(e), ['destinationCountryCode']);
      expect(res.status).toBe(200);
      // Not DE any more: the server-side fallback, no longer skipped, derives Wien → AT.
      expect(res.body.destinationCountryCode).toBe('AT');
      expect(res.body.destinationCountryResolution.source).toBe('DerivedFromDestination');
    });

    it('advancePayment: optional, omitted is cleared (no advance: 0)', async () => {
      const e = await fullEntry();
      const { res } = await putWithout(cz, url(e), ['advancePayment']);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ advancePayment: 0, advancePaymentInBaseCurrency: 0 });
    });

    it('currencyCode: omitted is cleared to the base currency (the advance needs no rate)', async () => {
      const e = await fullEntry();
      const { res } = await putWithout(cz, url(e), ['currencyCode']);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        currencyCode: 'CZK',
        advancePayment: 200,
        advancePaymentInBaseCurrency: 200,
        advancePaymentExchangeRateSource: null,
      });
    });

    it('advancePaymentDate: omitted is not kept; it falls back to the default, the entry (departure) date', async () => {
      const e = await fullEntry();
      expect(e.advancePaymentDate).toBe('2026-11-18');
      const { res } = await putWithout(cz, url(e), ['advancePaymentDate']);
      expect(res.status).toBe(200);
      expect(res.body.advancePaymentDate).toBe(TRIP.departureDate);
    });

    it('manualAdvanceExchangeRate: omitted is cleared; with no published rate the advance is then a documented 400', async () => {
      const e = await ok(
        await cz.post(ENTRIES, {
          departureDate: UNPUBLISHED,
          returnDate: UNPUBLISHED,
          advancePayment: 100,
          currencyCode: 'EUR',
          manualAdvanceExchangeRate: 25,
        }),
        201,
      );
      expect(e).toMatchObject({ advancePaymentInBaseCurrency: 2500, advancePaymentExchangeRateSource: 'MANUAL' });
      const { res } = await putWithout(cz, url(e), ['manualAdvanceExchangeRate']);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('EXCHANGE_RATE_UNAVAILABLE');
      // Cleared together with the advance: no manual rate left, nothing to convert.
      const none = await putWithout(cz, url(e), ['manualAdvanceExchangeRate', 'advancePayment', 'currencyCode']);
      expect(none.res.status).toBe(200);
      expect(none.res.body).toMatchObject({ manualAdvanceExchangeRate: null, advancePayment: 0 });
    });

    it('costCenterAllocations: optional nested collection, omitted is cleared (none)', async () => {
      const e = await fullEntry();
      expect(e.costCenterAllocations).toHaveLength(1);
      const { res } = await putWithout(cz, url(e), ['costCenterAllocations']);
      expect(res.status).toBe(200);
      expect(res.body.costCenterAllocations).toEqual([]);
    });

    it('travelType: omitted is not kept, derived from the trip (docs/decisions/0190)', async () => {
      const e = await fullEntry(cz, { destination: 'Brno', destinationCountryCode: 'CZ' });
      expect(e.travelType).toBe('Foreign');
      const { res } = await putWithout(cz, url(e), ['travelType']);
      expect(res.status).toBe(200);
      expect(res.body.travelType).toBe('Domestic');
    });

    it('employeeId: omitted is the entry’s own employee (it cannot change)', async () => {
      const e = await fullEntry();
      const { res } = await putWithout(cz, url(e), ['employeeId']);
      expect(res.status).toBe(200);
      expect(res.body.employeeId).toBe(e.employeeId);
    });

    it.each(['departureDate', 'returnDate'])('%s: required, omitted is a 400 keyed by the field', async (field) => {
      const e = await fullEntry();
      const { got, res } = await putWithout(cz, url(e), [field]);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED' });
      expect(JSON.stringify(res.body.errors)).toContain(field);
      expect(await ok(await cz.get(url(e)))).toEqual(got);
    });
  });

  describe('expense (SPEC: "update one expense (full replace)", "Expense (fields known)")', () => {
    const expenses = (entryId: string) => `${ENTRIES}/${entryId}/expenses`;
    async function expense(api: ApiClient, body: Body, trip: Body = TRIP) {
      const e = await ok(await api.post(ENTRIES, trip), 201);
      const x = await ok(await api.post(expenses(e.id), body), 201);
      return { url: `${expenses(e.id)}/${x.id}`, x };
    }
    const paid = { kind: 'Other', date: '2026-11-20', description: 'Taxi', amount: 10, currencyCode: 'EUR' };
    const mileage = { kind: 'Mileage', date: '2026-11-20', distanceKm: 120, fuelType: 'Petrol', fuelConsumption: 6.5 };

    it('description: optional, omitted is cleared (null)', async () => {
      const { url } = await expense(cz, paid);
      const { res } = await putWithout(cz, url, ['description']);
      expect(res.status).toBe(200);
      expect(res.body.description).toBeNull();
    });

    it('currencyCode: omitted is cleared to the base currency (no rate, no source)', async () => {
      const { url, x } = await expense(cz, paid);
      expect(x.exchangeRateSource).toBe('CNB');
      const { res } = await putWithout(cz, url, ['currencyCode']);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ currencyCode: 'CZK', amountInBaseCurrency: 10, exchangeRateSource: null });
    });

    it('manualExchangeRate: omitted is cleared; with no published rate that is a documented 400', async () => {
      const { url, x } = await expense(
        cz,
        { ...paid, date: UNPUBLISHED, manualExchangeRate: 25 },
        { departureDate: UNPUBLISHED, returnDate: UNPUBLISHED },
      );
      expect(x).toMatchObject({ amountInBaseCurrency: 250, exchangeRateSource: 'MANUAL' });
      const { res } = await putWithout(cz, url, ['manualExchangeRate']);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('EXCHANGE_RATE_UNAVAILABLE');
      const base = await putWithout(cz, url, ['manualExchangeRate', 'currencyCode']);
      expect(base.res.status).toBe(200);
      expect(base.res.body).toMatchObject({ manualExchangeRate: null, exchangeRateSource: null });
    });

    it('vehicleId (kept only on Mileage rows): omitted is cleared, and the vehicle with it', async () => {
      const v = await ok(
        await cz.post('/api/v1/vehicles', {
          type: 'Company',
          name: unique('Pool '),
          fuelType: 'Petrol',
          fuelConsumption: 6.5,
          category: 1,
        }),
        201,
      );
      const { url, x } = await expense(cz, { ...mileage, vehicleId: v.id });
      expect(x.vehicleId).toBe(v.id);
      const { res } = await putWithout(cz, url, ['vehicleId']);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ vehicleId: null, vehicle: null });
    });

    it('vehicleKind: omitted is cleared to the default class (Car)', async () => {
      const { url, x } = await expense(cz, { ...mileage, vehicleKind: 'Motorcycle' });
      expect(x.vehicleKind).toBe('Motorcycle');
      const { res } = await putWithout(cz, url, ['vehicleKind']);
      expect(res.status).toBe(200);
      expect(res.body.vehicleKind).toBe('Car');
    });

    it.each(['fuelType', 'fuelConsumption'])(
      '%s (a CZ Mileage row without a vehicle): cleared, and then missing: a 400 keyed by the field',
      async (field) => {
        const { url } = await expense(cz, mileage);
        const { res } = await putWithout(cz, url, [field]);
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('VALIDATION_FAILED');
        expect(res.body.errors).toHaveProperty([field]);
      },
    );

    it('fuelUnitPriceOverride: omitted recomputes the row with the regulation average (stated in the spec)', async () => {
      const { url, x } = await expense(cz, { ...mileage, fuelUnitPriceOverride: 36.5 });
      expect(x).toMatchObject({ amount: 992.7, fuelUnitPriceOverride: 36.5 });
      const { res } = await putWithout(cz, url, ['fuelUnitPriceOverride', 'mileagePetrolGrade']);
      expect(res.status).toBe(200);
      // 120 × 5.90 + 7.8 l × 34.70 (Natural 95 average) = 978.66 CZK
      expect(res.body).toMatchObject({ amount: 978.66, fuelUnitPriceOverride: null, fuelUnitPrice: 34.7 });
    });

    it('mileagePetrolGrade: omitted recomputes with the 95 grade (stated in the spec)', async () => {
      const { url, x } = await expense(cz, { ...mileage, mileagePetrolGrade: 'Octane98' });
      expect(x).toMatchObject({ amount: 1012.2, mileagePetrolGrade: 'Octane98' });
      const { res } = await putWithout(cz, url, ['mileagePetrolGrade']);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ amount: 978.66, mileagePetrolGrade: 'Octane95' });
    });

    it.each([
      ['amount', paid],
      ['distanceKm', mileage],
      ['kind', paid],
      ['date', paid],
    ])('%s: required for the row, omitted is a 400 keyed by the field', async (field, body) => {
      const { url, x } = await expense(cz, body);
      const { res } = await putWithout(cz, url, [field]);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(JSON.stringify(res.body.errors)).toContain(field);
      expect(await ok(await cz.get(url))).toEqual(x);
    });
  });

  describe('per-diem row, through the entry PUT (SPEC: "Per-diem (fields known)")', () => {
    /** A 16-hour domestic day, 06:00–22:00 local (05:00Z–21:00Z), 2 Nov 2026. */
    const row = (market: string, extra: Body = {}) => ({
      countryCode: market,
      departureTime: '2026-11-02T05:00:00Z',
      arrivalTime: '2026-11-02T21:00:00Z',
      ...extra,
    });
    async function withRow(api: ApiClient, r: Body) {
      return ok(await api.post(ENTRIES, { departureDate: '2026-11-02', returnDate: '2026-11-03', perDiems: [r] }), 201);
    }
    /** PUTs the entry's GET body with its first row without `fields`. */
    async function putRowWithout(api: ApiClient, e: Body, fields: string[]) {
      const got = await ok(await api.get(`${ENTRIES}/${e.id}`));
      const res = await api.put(`${ENTRIES}/${e.id}`, {
        ...got,
        perDiems: [without(got.perDiems[0], ...fields), ...got.perDiems.slice(1)],
      });
      if (res.status === 200) expect(await ok(await api.get(`${ENTRIES}/${e.id}`))).toEqual(res.body);
      return res;
    }

    it.each(['breakfastsProvided', 'lunchesProvided', 'dinnersProvided'])(
      '%s: omitted is cleared (0 provided), the reduction recomputed',
      async (field) => {
        const e = await withRow(hr, row('HR', { [field]: 1 }));
        expect(e.perDiems[0][field]).toBe(1);
        const res = await putRowWithout(hr, e, [field, 'mealsProvided']);
        expect(res.status).toBe(200);
        // HR: over 12 h, 30 € with no meal provided.
        expect(res.body.perDiems[0]).toMatchObject({ [field]: 0, amount: 30 });
      },
    );

    it('mealsProvidedAllocation: optional, omitted is cleared (null); the per-meal counts sent stand', async () => {
      const e = await withRow(sk, row('SK', { mealsProvidedAllocation: [{ date: '2026-11-02', lunchesProvided: 1 }] }));
      expect(e.perDiems[0].mealsProvidedAllocation).toHaveLength(1);
      const res = await putRowWithout(sk, e, ['mealsProvidedAllocation']);
      expect(res.status).toBe(200);
      expect(res.body.perDiems[0]).toMatchObject({ mealsProvidedAllocation: null, lunchesProvided: 1 });
    });

    it('nightAllocation: optional, omitted is cleared (null)', async () => {
      const e = await withRow(sk, row('SK', { nightAllocation: { date: '2026-11-02', hours: 1 } }));
      expect(e.perDiems[0].nightAllocation).toEqual({ date: '2026-11-02', hours: 1 });
      const res = await putRowWithout(sk, e, ['nightAllocation']);
      expect(res.status).toBe(200);
      expect(res.body.perDiems[0].nightAllocation).toBeNull();
    });

    it('overrideAmount and overrideReason: "omitting them clears the override and reverts to the statutory payout"', async () => {
      const e = await withRow(hr, row('HR', { overrideAmount: 40, overrideReason: 'Collective agreement' }));
      expect(e.perDiems[0]).toMatchObject({ overrideAmount: 40, payableAmount: 40 });
      const res = await putRowWithout(hr, e, ['overrideAmount', 'overrideReason']);
      expect(res.status).toBe(200);
      expect(res.body.perDiems[0]).toMatchObject({
        overrideAmount: null,
        overrideReason: null,
        payableAmount: 30,
        amountInBaseCurrency: 30,
      });
    });

    it('manualExchangeRate: optional, omitted is cleared; with no published rate the row waits for one again', async () => {
      // PL employee, 1 Oct 2026 (no NBP rate recorded): Warsaw → Austria → back.
      const stops = [
        { time: '2026-10-01T05:00:00Z', countryCode: 'PL' },
        { time: '2026-10-01T07:00:00Z', countryCode: 'AT' },
        { time: '2026-10-01T21:00:00Z', countryCode: 'PL' },
        { time: '2026-10-01T23:00:00Z', countryCode: 'PL' },
      ];
      const e = await ok(await pl.post(ENTRIES, { departureDate: UNPUBLISHED, returnDate: UNPUBLISHED }), 201);
      await ok(await pl.post(`${ENTRIES}/${e.id}/per-diems/from-itinerary`, { stops }));
      const got = await ok(await pl.get(`${ENTRIES}/${e.id}`));
      const manual = await ok(
        await pl.put(`${ENTRIES}/${e.id}`, {
          ...got,
          perDiems: got.perDiems.map((r: Body, i: number) => (i === 1 ? { ...r, manualExchangeRate: 4.3 } : r)),
        }),
      );
      expect(manual.perDiems[1]).toMatchObject({ manualExchangeRate: 4.3, exchangeRateSource: 'MANUAL' });
      const res = await pl.put(`${ENTRIES}/${e.id}`, {
        ...manual,
        perDiems: manual.perDiems.map((r: Body, i: number) => (i === 1 ? without(r, 'manualExchangeRate') : r)),
      });
      expect(res.status).toBe(200);
      expect(res.body.perDiems[1]).toMatchObject({ manualExchangeRate: null, amountInBaseCurrency: null });
      expect(res.body.perDiems[1].reason).toContain('manualExchangeRate');
    });
  });

  describe('vehicle (SPEC: "Vehicle (fields known)")', () => {
    const VEHICLES = '/api/v1/vehicles';
    async function car(extra: Body = {}) {
      return ok(
        await cz.post(VEHICLES, {
          type: 'Company',
          name: unique('Octavia '),
          licensePlate: '1AB 2345',
          make: 'Škoda',
          model: 'Octavia Combi',
          fuelType: 'Diesel',
          fuelConsumption: 5.4,
          category: 1,
          engineCapacityCc: 1968,
          enginePowerKw: 110,
          ...extra,
        }),
        201,
      );
    }

    it.each(['category', 'engineCapacityCc', 'enginePowerKw'])(
      '%s: "on update omitted keeps the value", 0 clears it',
      async (field) => {
        const v = await car();
        const { res } = await putWithout(cz, `${VEHICLES}/${v.id}`, [field]);
        expect(res.status).toBe(200);
        expect(res.body[field]).toBe(v[field]);
        const cleared = await ok(await cz.put(`${VEHICLES}/${v.id}`, { ...v, [field]: 0 }));
        expect(cleared[field]).toBeNull();
      },
    );

    it.each(['licensePlate', 'make', 'model', 'fuelType'])(
      '%s: no exception stated, omitted is cleared (null)',
      async (field) => {
        const v = await car();
        const { res } = await putWithout(cz, `${VEHICLES}/${v.id}`, [field]);
        expect(res.status).toBe(200);
        expect(res.body[field]).toBeNull();
      },
    );

    it('type: required ("any other value is rejected on create and update"): omitted is 400 under errors.Type', async () => {
      const v = await car();
      const { res } = await putWithout(cz, `${VEHICLES}/${v.id}`, ['type']);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: { Type: expect.any(Array) } });
    });

    it('name: required, omitted is a 400 keyed by the field', async () => {
      const v = await car();
      const { got, res } = await putWithout(cz, `${VEHICLES}/${v.id}`, ['name']);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(JSON.stringify(res.body.errors)).toContain('name');
      expect(await ok(await cz.get(`${VEHICLES}/${v.id}`))).toEqual(got);
    });

    it('ownerEmployeeId of a Personal vehicle: required for it, omitted is a 400 keyed by the field', async () => {
      const owner = await employee(cz);
      const v = await car({ type: 'Personal', ownerEmployeeId: owner.id });
      const { res } = await putWithout(cz, `${VEHICLES}/${v.id}`, ['ownerEmployeeId']);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.errors).toHaveProperty(['ownerEmployeeId']);
    });
  });

  describe('employee (SPEC: "Employee (fields known)")', () => {
    it('costCenterIds: "update: omitted keeps the list, empty array clears it"', async () => {
      const cc = await costCenter(cz);
      const e = await employee(cz, { costCenterIds: [cc] });
      const { res } = await putWithout(cz, `/api/v1/employees/${e.id}`, ['costCenterIds']);
      expect(res.status).toBe(200);
      expect(res.body.costCenterIds).toEqual([cc]);
      const cleared = await ok(await cz.put(`/api/v1/employees/${e.id}`, { ...res.body, costCenterIds: [] }));
      expect(cleared.costCenterIds).toEqual([]);
    });
  });
});
