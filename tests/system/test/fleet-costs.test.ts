// Vehicle costs through the gateway (issue 11; API-SURFACE "vehicle costs"): date, kind, amount and
// currency as a decimal (never a binary float), odometer, note; ManageVehicles for every write; a cost
// blocks the vehicle's delete until it is removed; another company's vehicle is 404.
import type { ApiClient } from '@travel/testkit';
import { limitedCaller, MISSING_ID } from '@travel/employees/test/support/org-fixtures';
import { startFleetStack, type FleetStack } from './support/fleet-stack';

const COST_KEYS = [
  'amount',
  'createdAt',
  'currency',
  'date',
  'editedAt',
  'id',
  'kind',
  'note',
  'odometerKm',
  'vehicleId',
];

describe('vehicle costs', () => {
  let stack: FleetStack;
  let api: ApiClient;
  let vehicleId: string;

  const fuel = (extra: Record<string, unknown> = {}) => ({
    date: '2026-10-12',
    kind: 'Fuel',
    amount: 84.37,
    currency: 'EUR',
    odometerKm: 48210,
    note: 'INA Zagreb-Jankomir',
    ...extra,
  });

  async function vehicle(client = api): Promise<string> {
    const res = await client.post('/api/v1/vehicles', { type: 'Company', name: 'Van', category: 1 });
    if (res.status !== 201) throw new Error(`creating a vehicle: ${res.status} ${res.text}`);
    return res.body.id;
  }

  beforeAll(async () => {
    stack = await startFleetStack('fleet-costs');
    api = (await stack.tenant('HR')).api;
    vehicleId = await vehicle();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('create, list, full-replace update (a GET body PUT back is valid) and remove', async () => {
    const created = await api.post(`/api/v1/vehicles/${vehicleId}/costs`, fuel());
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(COST_KEYS);
    expect(created.body).toMatchObject({ vehicleId, ...fuel() });

    const list = await api.get(`/api/v1/vehicles/${vehicleId}/costs`);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ page: 1, pageSize: 20, total: 1, totalPages: 1 });
    expect(list.body.items).toEqual([created.body]);

    const echoed = await api.put(`/api/v1/vehicles/${vehicleId}/costs/${created.body.id}`, created.body);
    expect(echoed.status).toBe(200);
    expect(echoed.body).toMatchObject({ ...created.body, editedAt: expect.any(String) });

    // Full replace: omitted odometer and note are cleared.
    const replaced = await api.put(`/api/v1/vehicles/${vehicleId}/costs/${created.body.id}`, {
      date: '2026-10-13',
      kind: 'Service',
      amount: 250,
      currency: 'EUR',
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ kind: 'Service', amount: 250, odometerKm: null, note: null });

    expect((await api.delete(`/api/v1/vehicles/${vehicleId}/costs/${created.body.id}`)).status).toBe(204);
    expect((await api.delete(`/api/v1/vehicles/${vehicleId}/costs/${created.body.id}`)).status).toBe(404);
    expect((await api.get(`/api/v1/vehicles/${vehicleId}/costs`)).body.total).toBe(0);
  });

  it('every kind: fuel, service, tyres, insurance, toll, parking, other; newest date first; the kind filter', async () => {
    const v = await vehicle();
    const kinds = ['Fuel', 'Service', 'Tyres', 'Insurance', 'Toll', 'Parking', 'Other'];
    for (const [i, kind] of kinds.entries())
      expect((await api.post(`/api/v1/vehicles/${v}/costs`, fuel({ kind, date: `2026-10-0${i + 1}` }))).status).toBe(
        201,
      );
    const all = (await api.get(`/api/v1/vehicles/${v}/costs?pageSize=100`)).body.items;
    expect(all.map((c: any) => c.kind)).toEqual([...kinds].reverse());
    const tolls = (await api.get(`/api/v1/vehicles/${v}/costs?kind=Toll`)).body.items;
    expect(tolls.map((c: any) => c.kind)).toEqual(['Toll']);
    const bad = await api.post(`/api/v1/vehicles/${v}/costs`, fuel({ kind: 'Food' }));
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(['kind']);
    expect((await api.get(`/api/v1/vehicles/${v}/costs?kind=Food`)).status).toBe(400);
  });

  it('amounts are JSON numbers within the currency minor digits, kept exactly (no binary floating point)', async () => {
    const cases: [number, string][] = [
      [0.1, 'EUR'],
      [0.3, 'EUR'],
      [999999999, 'EUR'], // the product's maximum amount (docs/decisions/0107)
      [123456789.01, 'EUR'],
      [1500, 'CZK'],
      [99.9, 'PLN'],
      [1500, 'JPY'],
    ];
    for (const [amount, currency] of cases) {
      const res = await api.post(`/api/v1/vehicles/${vehicleId}/costs`, fuel({ amount, currency }));
      expect({ amount, status: res.status, stored: res.body.amount }).toEqual({ amount, status: 201, stored: amount });
      expect((await api.get(`/api/v1/vehicles/${vehicleId}/costs?pageSize=100`)).body.items).toContainEqual(res.body);
    }
    // The raw JSON keeps the digits the client wrote (no 0.30000000000000004).
    const raw = await api.post(
      `/api/v1/vehicles/${vehicleId}/costs`,
      '{"date":"2026-10-01","kind":"Toll","amount":0.3,"currency":"EUR"}',
      {
        'content-type': 'application/json',
      },
    );
    expect(raw.text).toContain('"amount":0.3,');
    const refused: [unknown, string, string][] = [
      ['84.37', 'EUR', 'amount'], // money is a JSON number on the wire, never a string (docs/decisions/0020)
      [84.375, 'EUR', 'amount'], // more places than EUR has: refused, never rounded
      [1.5, 'JPY', 'amount'],
      [0, 'EUR', 'amount'],
      [-5, 'EUR', 'amount'],
      [999999999.01, 'EUR', 'amount'], // above the maximum amount
      [9999999999999.99, 'EUR', 'amount'],
      [0.1 + 0.2, 'EUR', 'amount'], // a float artefact: 0.30000000000000004
      [10, 'EURO', 'currency'],
      [10, 'eur', 'currency'],
      [10, 'XYZ', 'currency'],
    ];
    for (const [amount, currency, key] of refused) {
      const res = await api.post(`/api/v1/vehicles/${vehicleId}/costs`, fuel({ amount, currency }));
      expect({ amount, currency, status: res.status, keys: Object.keys(res.body.errors ?? {}) }).toEqual({
        amount,
        currency,
        status: 400,
        keys: [key],
      });
    }
  });

  it('date, odometer and note rules; unknown fields are 400', async () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ date: '2026-02-30' }, 'date'],
      [{ date: '12.10.2026' }, 'date'],
      [{ odometerKm: -1 }, 'odometerKm'],
      [{ odometerKm: 12.5 }, 'odometerKm'],
      [{ note: 'x'.repeat(501) }, 'note'],
      [{ litres: 40 }, 'litres'],
    ];
    for (const [extra, key] of bad) {
      const res = await api.post(`/api/v1/vehicles/${vehicleId}/costs`, fuel(extra));
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.errors)).toContain(key);
    }
    // Any day of the contract's `format: date` is taken, the years 0-99 too (issue 21: they were read as 19xx).
    const early = await api.post(`/api/v1/vehicles/${vehicleId}/costs`, fuel({ date: '0035-10-27' }));
    expect(early.status).toBe(201);
    expect(early.body.date).toBe('0035-10-27');
    for (const missing of ['date', 'kind', 'amount', 'currency']) {
      const body: Record<string, unknown> = fuel();
      delete body[missing];
      expect((await api.post(`/api/v1/vehicles/${vehicleId}/costs`, body)).status).toBe(400);
    }
  });

  it('a cost of another vehicle, or an unknown one, is 404 under this vehicle', async () => {
    const other = await vehicle();
    const cost = await api.post(`/api/v1/vehicles/${other}/costs`, fuel());
    expect((await api.put(`/api/v1/vehicles/${vehicleId}/costs/${cost.body.id}`, fuel())).status).toBe(404);
    expect((await api.delete(`/api/v1/vehicles/${vehicleId}/costs/${cost.body.id}`)).status).toBe(404);
    expect((await api.delete(`/api/v1/vehicles/${vehicleId}/costs/${MISSING_ID}`)).status).toBe(404);
    expect((await api.post(`/api/v1/vehicles/${MISSING_ID}/costs`, fuel())).status).toBe(404);
    expect((await api.get(`/api/v1/vehicles/${MISSING_ID}/costs`)).status).toBe(404);
  });

  it('reads need only a key of the company; writes need ManageVehicles (ManageCompanyData is not enough)', async () => {
    const reader = await limitedCaller(api, ['ManageCompanyData', 'ReadAllEntries']);
    expect((await reader.api.get(`/api/v1/vehicles/${vehicleId}/costs`)).status).toBe(200);
    const refused = await reader.api.post(`/api/v1/vehicles/${vehicleId}/costs`, fuel());
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('FORBIDDEN');
    const fleet = await limitedCaller(api, ['FleetManager']);
    expect((await fleet.api.post(`/api/v1/vehicles/${vehicleId}/costs`, fuel())).status).toBe(201);
  });

  it('a cost blocks deleting its vehicle (409, unchanged); a removed cost no longer does', async () => {
    const v = await vehicle();
    const a = await api.post(`/api/v1/vehicles/${v}/costs`, fuel());
    const b = await api.post(`/api/v1/vehicles/${v}/costs`, fuel({ kind: 'Toll' }));
    expect((await api.delete(`/api/v1/vehicles/${v}`)).status).toBe(409);
    await api.delete(`/api/v1/vehicles/${v}/costs/${a.body.id}`);
    const stillOne = await api.delete(`/api/v1/vehicles/${v}`);
    expect(stillOne.status).toBe(409);
    expect(stillOne.body.detail).toContain('1 cost');
    await api.delete(`/api/v1/vehicles/${v}/costs/${b.body.id}`);
    expect((await api.delete(`/api/v1/vehicles/${v}`)).status).toBe(204);
  });

  it('a cost entered while a delete is under way: exactly one wins, never a cost on a deleted vehicle', async () => {
    for (let round = 0; round < 5; round++) {
      const v = await vehicle();
      const [cost, del] = await Promise.all([
        api.post(`/api/v1/vehicles/${v}/costs`, fuel()),
        api.delete(`/api/v1/vehicles/${v}`),
      ]);
      if (del.status === 204) {
        expect(cost.status).toBe(404);
        expect((await api.get(`/api/v1/vehicles/${v}`)).status).toBe(404);
      } else {
        expect({ cost: cost.status, del: del.status }).toEqual({ cost: 201, del: 409 });
        expect((await api.get(`/api/v1/vehicles/${v}/costs`)).body.total).toBe(1);
      }
    }
  });
});
