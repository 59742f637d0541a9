// Expenses of a travel entry through the gateway, against reference-fx with the recorded provider feeds:
// amounts converted on the expense date with exchangeRateSource provenance and the manual-rate rule;
// Mileage rows priced from @travel/regulations (distance × statutory rate, plus the CZ/SK fuel part);
// the vehicle kept only on Mileage rows; full replace; child changes raise entry.updated; atomic create.
import { crossTenant } from '@travel/platform';
import { limitedCaller } from '@travel/employees/test/support/org-fixtures';
import { registerModels } from '@travel/entries/src/infra/models';
import { eventually, type ApiClient } from '@travel/testkit';
import { startEntriesStack, type EntriesStack } from './support/entries-stack';

// Direct store probes of the test look across tenants on purpose (docs/decisions/0081).
const TEST_PROBE = crossTenant('test probe');

const TRIP = { departureDate: '2026-11-19', returnDate: '2026-11-20' };
const VEHICLE = '3f2b8a4e-1c7d-4e8a-9b1f-2a6c5d4e3f21';

describe('entries: expenses', () => {
  let stack: EntriesStack;
  let cz: ApiClient;
  let sk: ApiClient;

  beforeAll(async () => {
    stack = await startEntriesStack('entries-expenses', {}, { fleet: true });
    cz = (await stack.tenant('CZ')).api;
    sk = (await stack.tenant('SK')).api;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const entry = async (api: ApiClient, body: Record<string, unknown> = {}) => {
    const res = await api.post('/api/v1/travel-entries', { ...TRIP, ...body });
    if (res.status !== 201) throw new Error(`entry: ${res.status} ${res.text}`);
    return res.body;
  };
  const path = (id: string) => `/api/v1/travel-entries/${id}/expenses`;

  describe('paid amounts and FX', () => {
    it('converts with the provider rate of the expense date: CNB EUR 24.209 on 2026-11-20 for a CZ company', async () => {
      const e = await entry(cz);
      const res = await cz.post(path(e.id), { kind: 'Parking', date: '2026-11-20', amount: 12.5, currencyCode: 'EUR' });
      expect(res.status).toBe(201);
      // 12.50 × 24.209 = 302.6125 → 302.61 CZK
      expect(res.body).toMatchObject({
        kind: 'Parking',
        amount: 12.5,
        currencyCode: 'EUR',
        amountInBaseCurrency: 302.61,
        exchangeRateSource: 'CNB',
        manualExchangeRate: null,
        vehicleId: null,
        vehicle: null,
      });
      expect((await cz.get(`${path(e.id)}/${res.body.id}`)).body).toEqual(res.body);
      const detail = (await cz.get(`/api/v1/travel-entries/${e.id}`)).body;
      expect(detail.expenses).toEqual([res.body]);
      expect(detail.expenseTotal).toBe(302.61);
    });

    it('ECB for an SK company (USD 1.1596 per EUR on 2026-11-20); the base currency needs no rate', async () => {
      const e = await entry(sk);
      const usd = await sk.post(path(e.id), {
        kind: 'Accommodation',
        date: '2026-11-20',
        amount: 100,
        currencyCode: 'USD',
      });
      expect(usd.body).toMatchObject({ amountInBaseCurrency: 86.24, exchangeRateSource: 'ECB' }); // 100 / 1.1596
      const eur = await sk.post(path(e.id), { kind: 'Toll', date: '2026-11-20', amount: 9.9 });
      expect(eur.body).toMatchObject({ currencyCode: 'EUR', amountInBaseCurrency: 9.9, exchangeRateSource: null });
    });

    it('manual-rate rule: refused with EXCHANGE_RATE_UNAVAILABLE while an official rate exists', async () => {
      const e = await entry(cz);
      const res = await cz.post(path(e.id), {
        kind: 'Other',
        date: '2026-11-20',
        amount: 10,
        currencyCode: 'EUR',
        manualExchangeRate: 25,
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('EXCHANGE_RATE_UNAVAILABLE');
      expect(res.body.errors).toHaveProperty('manualExchangeRate');
      expect((await cz.get(`/api/v1/travel-entries/${e.id}`)).body.expenses).toEqual([]);
    });

    it('refuses bad amounts with field errors', async () => {
      const e = await entry(cz);
      for (const [body, key] of [
        [{ kind: 'Other', date: '2026-11-20' }, 'amount'],
        [{ kind: 'Other', date: '2026-11-20', amount: 1.234 }, 'amount'],
        [{ kind: 'Other', date: '2026-11-20', amount: 1, currencyCode: 'ABC' }, 'currencyCode'],
        [{ kind: 'Teleport', date: '2026-11-20', amount: 1 }, 'kind'],
      ] as const) {
        const res = await cz.post(path(e.id), body);
        expect({ key, status: res.status }).toEqual({ key, status: 400 });
        expect(res.body.errors).toHaveProperty([key]);
      }
    });
  });

  describe('the advance', () => {
    it('is converted on advancePaymentDate (CNB EUR 24.261 on 2026-11-18) with its source; a manual rate only without an official one', async () => {
      const e = await entry(cz, { advancePayment: 200, currencyCode: 'EUR', advancePaymentDate: '2026-11-18' });
      // 200 × 24.261 = 4852.20 CZK
      expect(e).toMatchObject({
        advancePayment: 200,
        currencyCode: 'EUR',
        advancePaymentInBaseCurrency: 4852.2,
        advancePaymentExchangeRateSource: 'CNB',
      });
      const manual = await cz.post('/api/v1/travel-entries', {
        ...TRIP,
        advancePayment: 200,
        currencyCode: 'EUR',
        manualAdvanceExchangeRate: 25,
      });
      expect(manual.status).toBe(400);
      expect(manual.body.code).toBe('EXCHANGE_RATE_UNAVAILABLE');
      expect(manual.body.errors).toHaveProperty('manualAdvanceExchangeRate');
      // Back in the base currency: no rate, no source.
      const back = await cz.put(`/api/v1/travel-entries/${e.id}`, { ...e, currencyCode: 'CZK', advancePayment: 5000 });
      expect(back.body).toMatchObject({ advancePaymentInBaseCurrency: 5000, advancePaymentExchangeRateSource: null });
    });
  });

  describe('who may change expenses (decision 0044)', () => {
    it("ReadAllEntries reads another's expenses but may not change them; a plain caller does not see them", async () => {
      const e = await entry(cz);
      const x = (await cz.post(path(e.id), { kind: 'Meals', date: '2026-11-19', amount: 100 })).body;
      const reader = await limitedCaller(cz, ['ReadAllEntries']);
      expect((await reader.api.get(`${path(e.id)}/${x.id}`)).status).toBe(200);
      expect((await reader.api.post(path(e.id), { kind: 'Meals', date: '2026-11-19', amount: 1 })).status).toBe(403);
      expect((await reader.api.put(`${path(e.id)}/${x.id}`, x)).status).toBe(403);
      expect((await reader.api.delete(`${path(e.id)}/${x.id}`)).status).toBe(403);
      const plain = await limitedCaller(cz, []);
      expect((await plain.api.get(`${path(e.id)}/${x.id}`)).status).toBe(404);
      expect((await plain.api.post(path(e.id), { kind: 'Meals', date: '2026-11-19', amount: 1 })).status).toBe(404);
    });
  });

  describe('Mileage (vehicle-use reimbursement)', () => {
    it('CZ 2026: 120 km × 5.90 + 120 × 6.5 / 100 × 34.70 (Natural 95) = 978.66 CZK', async () => {
      const e = await entry(cz);
      const res = await cz.post(path(e.id), {
        kind: 'Mileage',
        date: '2026-11-20',
        distanceKm: 120,
        fuelType: 'Petrol',
        fuelConsumption: 6.5,
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        amount: 978.66,
        currencyCode: 'CZK',
        amountInBaseCurrency: 978.66,
        exchangeRateSource: null,
        ratePerKm: 5.9,
        fuelUnitPrice: 34.7,
        mileagePetrolGrade: 'Octane95',
        fuelUnitPriceOverride: null,
        vehicleKind: 'Car',
      });
      // The 98 grade: 120 × 5.90 + 7.8 × 39.00 = 1012.20; echoed back it is kept.
      const grade98 = await cz.put(`${path(e.id)}/${res.body.id}`, { ...res.body, mileagePetrolGrade: 'Octane98' });
      expect(grade98.body).toMatchObject({ amount: 1012.2, fuelUnitPrice: 39, mileagePetrolGrade: 'Octane98' });
      expect((await cz.put(`${path(e.id)}/${res.body.id}`, grade98.body)).body).toEqual(grade98.body);
      // Omitted on update: back to the regulation average, 95 grade.
      const { mileagePetrolGrade: _g, fuelUnitPriceOverride: _o, ...rest } = grade98.body;
      expect((await cz.put(`${path(e.id)}/${res.body.id}`, rest)).body).toMatchObject({
        amount: 978.66,
        mileagePetrolGrade: 'Octane95',
      });
      // A receipt price replaces the average; the grade no longer affects the price and is not stored.
      const receipt = await cz.put(`${path(e.id)}/${res.body.id}`, { ...rest, fuelUnitPriceOverride: 36.5 });
      expect(receipt.body).toMatchObject({ amount: 992.7, fuelUnitPriceOverride: 36.5, mileagePetrolGrade: null });
    });

    it('SK: no regulation fuel average, so the receipt price is required; 100 km × 0.313 + 5 l × 1.559 = 39.10 EUR', async () => {
      const e = await entry(sk);
      const without = await sk.post(path(e.id), {
        kind: 'Mileage',
        date: '2026-11-20',
        distanceKm: 100,
        fuelType: 'Diesel',
        fuelConsumption: 5,
      });
      expect(without.status).toBe(400);
      expect(without.body.errors).toHaveProperty('fuelUnitPriceOverride');
      const res = await sk.post(path(e.id), {
        kind: 'Mileage',
        date: '2026-11-20',
        distanceKm: 100,
        fuelType: 'Diesel',
        fuelConsumption: 5,
        fuelUnitPriceOverride: 1.559,
      });
      expect(res.body).toMatchObject({
        amount: 39.1,
        ratePerKm: 0.313,
        fuelUnitPrice: 1.559,
        mileagePetrolGrade: null,
      });
    });

    it('HR has no fuel part: fuel fields are not stored; 200 km × 0.50 = 100 EUR', async () => {
      const hr = (await stack.tenant('HR')).api;
      const e = await entry(hr);
      const res = await hr.post(path(e.id), {
        kind: 'Mileage',
        date: '2026-11-20',
        distanceKm: 200,
        fuelType: 'Petrol',
        fuelConsumption: 7,
        fuelUnitPriceOverride: 1.6,
        mileagePetrolGrade: 'Octane98',
      });
      expect(res.body).toMatchObject({
        amount: 100,
        fuelType: null,
        fuelConsumption: null,
        fuelUnitPriceOverride: null,
        mileagePetrolGrade: null,
        fuelUnitPrice: null,
      });
    });

    it('the vehicle is kept only on Mileage rows: every other kind stores none and reads vehicle: null', async () => {
      const e = await entry(cz);
      const car = (await cz.post('/api/v1/vehicles', { type: 'Company', name: 'Pool car', category: 1 })).body.id;
      const fuel = await cz.post(path(e.id), { kind: 'Fuel', date: '2026-11-20', amount: 1500, vehicleId: car });
      expect(fuel.status).toBe(201);
      expect(fuel.body).toMatchObject({ vehicleId: null, vehicle: null });
      const stored = await registerModels(stack.entries.deps.mongo)
        .Entry.findOne({ _id: e.id }, null, TEST_PROBE)
        .lean();
      expect(stored!.expenses[0]!.vehicleId).toBeNull();
    });
  });

  describe('writes', () => {
    it('full replace, delete, 404s, and an unchanged PUT changes nothing', async () => {
      const e = await entry(cz);
      const x = (await cz.post(path(e.id), { kind: 'Meals', date: '2026-11-19', amount: 250, description: 'Lunch' }))
        .body;
      const same = await cz.put(`${path(e.id)}/${x.id}`, x);
      expect(same.body).toEqual(x);
      const replaced = await cz.put(`${path(e.id)}/${x.id}`, { kind: 'Meals', date: '2026-11-19', amount: 300 });
      expect(replaced.body).toMatchObject({ amount: 300, description: null, createdAt: x.createdAt });
      expect((await cz.put(`${path(e.id)}/${x.id}`, { ...x, extra: 1 })).status).toBe(400);
      expect((await cz.get(`${path(e.id)}/${VEHICLE}`)).status).toBe(404);
      expect((await cz.delete(`${path(e.id)}/${x.id}`)).status).toBe(204);
      expect((await cz.get(`${path(e.id)}/${x.id}`)).status).toBe(404);
      expect((await cz.get(`/api/v1/travel-entries/${e.id}`)).body.expenses).toEqual([]);
      const other = (await stack.tenant('CZ')).api;
      expect((await other.post(path(e.id), { kind: 'Meals', date: '2026-11-19', amount: 1 })).status).toBe(404);
    });

    it('entry create with nested expenses is atomic: one failing expense stores nothing', async () => {
      const { Entry } = registerModels(stack.entries.deps.mongo);
      const before = await Entry.countDocuments({}, TEST_PROBE);
      const res = await cz.post('/api/v1/travel-entries', {
        ...TRIP,
        expenses: [
          { kind: 'Parking', date: '2026-11-20', amount: 10, currencyCode: 'EUR' },
          { kind: 'Other', date: '2026-11-20', amount: 10, currencyCode: 'EUR', manualExchangeRate: 30 },
          { kind: 'Mileage', date: '2026-11-20' },
        ],
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('EXCHANGE_RATE_UNAVAILABLE');
      expect(Object.keys(res.body.errors).sort()).toEqual(
        [
          'expenses[1].manualExchangeRate',
          'expenses[2].distanceKm',
          'expenses[2].fuelConsumption',
          'expenses[2].fuelType',
        ].sort(),
      );
      expect(await Entry.countDocuments({}, TEST_PROBE)).toBe(before);

      const ok = await cz.post('/api/v1/travel-entries', {
        ...TRIP,
        expenses: [
          { kind: 'Parking', date: '2026-11-20', amount: 10, currencyCode: 'EUR' },
          { kind: 'Fuel', date: '2026-11-20', amount: 1000, vehicleId: VEHICLE },
        ],
      });
      expect(ok.status).toBe(201);
      expect(ok.body.expenses.map((x: { amountInBaseCurrency: number }) => x.amountInBaseCurrency)).toEqual([
        242.09, 1000,
      ]);
      expect(ok.body.expenseTotal).toBe(1242.09);
      expect(ok.body.expenses[1].vehicle).toBeNull();
    });

    it('amount allocations must sum to the expense total', async () => {
      const cc = (await cz.post('/api/v1/cost-centers', { name: 'Sales', code: `S-${Date.now()}` })).body.id;
      const e = await entry(cz, { expenses: [{ kind: 'Meals', date: '2026-11-19', amount: 150.5 }] });
      const bad = await cz.put(`/api/v1/travel-entries/${e.id}`, {
        ...e,
        costCenterAllocations: [{ costCenterId: cc, amount: 150 }],
      });
      expect(bad.status).toBe(400);
      const good = await cz.put(`/api/v1/travel-entries/${e.id}`, {
        ...e,
        costCenterAllocations: [{ costCenterId: cc, amount: 150.5 }],
      });
      expect(good.status).toBe(200);
    });

    it('a locked entry refuses expense writes (409)', async () => {
      const e = await entry(cz);
      await registerModels(stack.entries.deps.mongo).Entry.updateOne(
        { _id: e.id },
        { $set: { isPaidOut: true } },
        TEST_PROBE,
      );
      const res = await cz.post(path(e.id), { kind: 'Meals', date: '2026-11-19', amount: 1 });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('INVALID_STATE');
    });

    it('child changes raise entry.updated at an HTTPS receiver; an unchanged PUT raises nothing', async () => {
      const t = await stack.tenant('CZ');
      const receiver = await stack.receiver();
      await t.api.post('/api/v1/webhooks', { url: receiver.url, eventTypes: ['entry.updated'] });
      const e = await entry(t.api);
      const x = (await t.api.post(path(e.id), { kind: 'Meals', date: '2026-11-19', amount: 100 })).body; // 1
      await t.api.put(`${path(e.id)}/${x.id}`, x); // unchanged: nothing
      await t.api.put(`${path(e.id)}/${x.id}`, { ...x, amount: 120 }); // 2
      await t.api.delete(`${path(e.id)}/${x.id}`); // 3
      const marker = await t.api.put(`/api/v1/travel-entries/${e.id}`, { ...e, destination: 'Marker' }); // 4
      await eventually(async () =>
        receiver.requests.some((r) => JSON.parse(r.body.toString('utf8')).data.editedAt === marker.body.editedAt),
      );
      expect(receiver.requests).toHaveLength(4);
      for (const r of receiver.requests) {
        const body = r.body.toString('utf8');
        expect(body).not.toContain('"expenses"');
        expect(body).not.toContain('Marker');
      }
    });
  });
});
