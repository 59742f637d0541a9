// Issue 22 §5 through the gateway: a vehicle carries its technical certificate's fuel type and
// consumption, and a CZ mileage row naming it is priced with them unless the row gives its own
// (docs/decisions/0133). Figures by hand from vyhl. 573/2025 Sb. (CZ 2026): Car 5.90 CZK/km, diesel
// 34.10 CZK/l, Natural 95 34.70 CZK/l, electricity 7.20 CZK/kWh.
import type { ApiClient } from '@travel/testkit';
import { startEntriesStack, type EntriesStack } from './support/entries-stack';

describe('mileage rows priced from the vehicle’s fuel data', () => {
  let stack: EntriesStack;
  let api: ApiClient;
  let entryId: string;

  const vehicle = async (body: Record<string, unknown>) => {
    const res = await api.post('/api/v1/vehicles', { type: 'Company', name: 'Pool car', category: 1, ...body });
    expect(res.status).toBe(201);
    return res.body as { id: string; fuelType: string | null; fuelConsumption: number | null };
  };
  const mileage = (vehicleId: string, extra: Record<string, unknown> = {}) =>
    api.post(`/api/v1/travel-entries/${entryId}/expenses`, {
      kind: 'Mileage',
      date: '2026-11-20',
      distanceKm: 120,
      vehicleId,
      ...extra,
    });

  beforeAll(async () => {
    stack = await startEntriesStack('mileage-vehicle-fuel', {}, { fleet: true });
    api = (await stack.tenant('CZ')).api;
    const entry = await api.post('/api/v1/travel-entries', { departureDate: '2026-11-20', returnDate: '2026-11-20' });
    expect(entry.status).toBe(201);
    entryId = entry.body.id;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('the vehicle records its consumption: create, detail, list; update omitted keeps, 0 clears', async () => {
    const v = await vehicle({ fuelType: 'Diesel', fuelConsumption: 5.4 });
    expect(v.fuelConsumption).toBe(5.4);
    expect((await api.get(`/api/v1/vehicles/${v.id}`)).body.fuelConsumption).toBe(5.4);
    const list = await api.get('/api/v1/vehicles?pageSize=100');
    expect(list.body.items.find((x: { id: string }) => x.id === v.id).fuelConsumption).toBe(5.4);

    const base = { type: 'Company', name: 'Pool car', fuelType: 'Diesel' };
    expect((await api.put(`/api/v1/vehicles/${v.id}`, base)).body.fuelConsumption).toBe(5.4);
    expect((await api.put(`/api/v1/vehicles/${v.id}`, { ...base, fuelConsumption: 0 })).body.fuelConsumption).toBe(
      null,
    );
    expect((await api.put(`/api/v1/vehicles/${v.id}`, { ...base, fuelConsumption: 6.1 })).body.fuelConsumption).toBe(
      6.1,
    );
    // Another fuel type without a figure: the diesel litres are not kept.
    const electric = await api.put(`/api/v1/vehicles/${v.id}`, { ...base, fuelType: 'Electric' });
    expect(electric.body).toMatchObject({ fuelType: 'Electric', fuelConsumption: null });
    const bad = await api.put(`/api/v1/vehicles/${v.id}`, { ...base, fuelConsumption: 5.456 });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(['fuelConsumption']);
  });

  it('a row naming a diesel vehicle is priced from the vehicle at the decree’s diesel price', async () => {
    const v = await vehicle({ fuelType: 'Diesel', fuelConsumption: 5.4 });
    const res = await mileage(v.id);
    expect(res.status).toBe(201);
    // 120 × 5.90 = 708; 120 × 5.4 / 100 = 6.48 l × 34.10 = 220.968; 928.968 → 928.97
    expect(res.body).toMatchObject({
      amount: 928.97,
      fuelType: 'Diesel',
      fuelConsumption: 5.4,
      ratePerKm: 5.9,
      fuelUnitPrice: 34.1,
      vehicle: { id: v.id },
    });
    // The GET body PUT back changes nothing; the stored row keeps the values applied.
    const url = `/api/v1/travel-entries/${entryId}/expenses/${res.body.id}`;
    const again = await api.put(url, (await api.get(url)).body);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ amount: 928.97, editedAt: res.body.editedAt });
  });

  it('in a new entry too, and the row’s own values win', async () => {
    const v = await vehicle({ fuelType: 'Diesel', fuelConsumption: 5.4 });
    const row = { kind: 'Mileage', date: '2026-11-20', distanceKm: 120, vehicleId: v.id };
    const res = await api.post('/api/v1/travel-entries', {
      departureDate: '2026-11-20',
      returnDate: '2026-11-20',
      expenses: [row, { ...row, fuelType: 'Petrol', fuelConsumption: 6.5 }, { ...row, fuelConsumption: 6 }],
    });
    expect(res.status).toBe(201);
    // The vehicle's: 928.97. The row's petrol: 708 + 7.8 l × 34.70 = 978.66. The row's 6 l of the
    // vehicle's diesel: 708 + 7.2 l × 34.10 = 953.52.
    expect(res.body.expenses.map((x: { amount: number }) => x.amount)).toEqual([928.97, 978.66, 953.52]);
  });

  it('an electric vehicle: kWh per 100 km at the decree’s electricity price', async () => {
    const v = await vehicle({ fuelType: 'Electric', fuelConsumption: 16.8 });
    const res = await mileage(v.id);
    expect(res.status).toBe(201);
    // 120 × 16.8 / 100 = 20.16 kWh × 7.20 = 145.152; 708 + 145.152 = 853.152 → 853.15
    expect(res.body).toMatchObject({ amount: 853.15, fuelType: 'Electric', fuelConsumption: 16.8, fuelUnitPrice: 7.2 });
  });

  it('a vehicle without fuel data: the row still needs its own values (400 that says why)', async () => {
    const v = await vehicle({});
    const res = await mileage(v.id);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.errors).toEqual({
      fuelType: ['is required on a Mileage row in CZ (the fuel part): the vehicle records no fuel type'],
      fuelConsumption: [
        'is required on a Mileage row in CZ (litres or kWh per 100 km): the vehicle records no fuel type',
      ],
    });
    const own = await mileage(v.id, { fuelType: 'Diesel', fuelConsumption: 5.4 });
    expect(own.status).toBe(201);
    expect(own.body.amount).toBe(928.97);
  });

  it('another company’s vehicle is refused under vehicleId', async () => {
    const other = (await stack.tenant('CZ')).api;
    const theirs = await other.post('/api/v1/vehicles', {
      type: 'Company',
      name: 'Theirs',
      category: 1,
      fuelType: 'Diesel',
      fuelConsumption: 5.4,
    });
    const res = await mileage(theirs.body.id);
    expect(res.status).toBe(400);
    expect(res.body.errors.vehicleId).toEqual(['must be a vehicle of this company']);
  });
});
