// Vehicles through the gateway (SPEC "Vehicle (fields known)", "States: Vehicle", "Endpoints: Vehicles",
// "Authentication" 2–4, "Errors", "Limits"; issue 11): every field rule, the state table, each permission
// case (Personal owner, FleetManager, ManageCompanyData only, no permission) and another company's vehicle.
import type { ApiClient } from '@travel/testkit';
import { employee, limitedCaller, MISSING_ID, unique } from '@travel/employees/test/support/org-fixtures';
import { startFleetStack, type FleetStack } from './support/fleet-stack';

const VEHICLE_KEYS = [
  'category',
  'createdAt',
  'editedAt',
  'engineCapacityCc',
  'enginePowerKw',
  'fuelConsumption',
  'fuelType',
  'id',
  'isArchived',
  'licensePlate',
  'make',
  'model',
  'name',
  'ownerEmployeeId',
  'type',
];

describe('vehicles', () => {
  let stack: FleetStack;
  let api: ApiClient;

  const companyCar = (extra: Record<string, unknown> = {}) => ({
    type: 'Company',
    name: unique('Octavia '),
    licensePlate: 'ZG-1234-AB',
    make: 'Škoda',
    model: 'Octavia Combi',
    fuelType: 'Diesel',
    category: 1,
    engineCapacityCc: 1968,
    enginePowerKw: 110,
    ...extra,
  });

  async function create(body: Record<string, unknown> = companyCar(), client = api): Promise<any> {
    const res = await client.post('/api/v1/vehicles', body);
    if (res.status !== 201) throw new Error(`creating a vehicle: ${res.status} ${res.text}`);
    return res.body;
  }

  beforeAll(async () => {
    stack = await startFleetStack('fleet-vehicles');
    api = (await stack.tenant('HR')).api;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('create, read, list, full-replace update and delete; detail and list return every field', async () => {
    const created = await api.post('/api/v1/vehicles', companyCar({ name: ' Pool car 1 ' }));
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(VEHICLE_KEYS);
    expect(created.body).toMatchObject({
      type: 'Company',
      name: 'Pool car 1',
      category: 1,
      engineCapacityCc: 1968,
      enginePowerKw: 110,
      fuelType: 'Diesel',
      ownerEmployeeId: null,
      isArchived: false,
    });
    const id = created.body.id;
    expect((await api.get(`/api/v1/vehicles/${id}`)).body).toEqual(created.body);
    const listed = await api.get('/api/v1/vehicles?pageSize=100');
    expect(listed.status).toBe(200);
    expect(Object.keys(listed.body).sort()).toEqual(['items', 'nextCursor', 'page', 'pageSize', 'total', 'totalPages']);
    expect(listed.body.items.find((v: any) => v.id === id)).toEqual(created.body);

    const replaced = await api.put(`/api/v1/vehicles/${id}`, { type: 'Company', name: 'Pool car 1', make: 'VW' });
    expect(replaced.status).toBe(200);
    // Full replace: omitted text and fuel type are cleared; omitted category and engine figures are kept.
    expect(replaced.body).toMatchObject({
      make: 'VW',
      model: null,
      licensePlate: null,
      fuelType: null,
      category: 1,
      engineCapacityCc: 1968,
      enginePowerKw: 110,
      createdAt: created.body.createdAt,
    });

    expect((await api.delete(`/api/v1/vehicles/${id}`)).status).toBe(204);
    expect((await api.get(`/api/v1/vehicles/${id}`)).status).toBe(404);
    expect((await api.delete(`/api/v1/vehicles/${id}`)).status).toBe(404);
  });

  it('a GET body PUT back unchanged is valid and changes nothing (editedAt included)', async () => {
    const v = await create();
    const got = (await api.get(`/api/v1/vehicles/${v.id}`)).body;
    const put = await api.put(`/api/v1/vehicles/${v.id}`, got);
    expect(put.status).toBe(200);
    expect(put.body).toEqual(got);
    expect((await api.get(`/api/v1/vehicles/${v.id}`)).body).toEqual(got);
    // Read-only fields are ignored, not applied: isArchived stays false, the id stays the path's.
    const tampered = await api.put(`/api/v1/vehicles/${v.id}`, { ...got, isArchived: true, id: MISSING_ID });
    expect(tampered.status).toBe(200);
    expect(tampered.body).toEqual(got);
    // Unknown fields stay 400.
    const unknown = await api.put(`/api/v1/vehicles/${v.id}`, { ...got, colour: 'red' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('VALIDATION_FAILED');

    // A vehicle without engine figures or category reads them as null; that body is a valid PUT too.
    const { engineCapacityCc: _e, enginePowerKw: _p, ...bare } = companyCar();
    const plain = await create(bare);
    const cleared = await api.put(`/api/v1/vehicles/${plain.id}`, { ...plain, category: 0 });
    expect([cleared.status, cleared.body.category, cleared.body.engineCapacityCc, cleared.body.enginePowerKw]).toEqual([
      200,
      null,
      null,
      null,
    ]);
    const echoed = await api.put(`/api/v1/vehicles/${plain.id}`, cleared.body);
    expect(echoed.status).toBe(200);
    expect(echoed.body).toEqual(cleared.body);
    // On create, category stays required: null is not a category.
    const noCategory = await api.post('/api/v1/vehicles', { ...bare, category: null });
    expect([noCategory.status, Object.keys(noCategory.body.errors)]).toEqual([400, ['category']]);
  });

  describe('type is Company or Personal only: anything else is 400 under errors.Type', () => {
    const bad: [string, unknown][] = [
      ['another string', 'Truck'],
      ['the wrong case', 'company'],
      ['the removed numeric public-transport type', 3],
      ['a number that once meant Company', 0],
      ['null', null],
      ['a boolean', true],
    ];
    it.each(bad)('on create: %s', async (_label, type) => {
      const res = await api.post('/api/v1/vehicles', companyCar({ type }));
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(Object.keys(res.body.errors)).toEqual(['Type']);
    });
    it('on create, when missing', async () => {
      const { type: _t, ...body } = companyCar();
      const res = await api.post('/api/v1/vehicles', body);
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.errors)).toEqual(['Type']);
    });
    it.each(bad)('on update: %s (the vehicle unchanged)', async (_label, type) => {
      const v = await create();
      const res = await api.put(`/api/v1/vehicles/${v.id}`, { ...v, type });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.errors)).toEqual(['Type']);
      expect((await api.get(`/api/v1/vehicles/${v.id}`)).body).toEqual(v);
    });
    // The page renders them from this list: tests/system/test/api-reference-page.test.ts.
    it('the contract lists the allowed values (the api-reference allow-list)', async () => {
      const doc = await api.get('/api-reference/openapi.json');
      expect(doc.body.components.schemas.VehicleType.enum).toEqual(['Company', 'Personal']);
    });
  });

  it('category: required on create; on update omitted keeps the stored value and 0 clears it', async () => {
    const { category: _c, ...noCategory } = companyCar();
    const missing = await api.post('/api/v1/vehicles', noCategory);
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.errors)).toEqual(['category']);
    expect((await api.post('/api/v1/vehicles', companyCar({ category: 1.5 }))).status).toBe(400);
    expect((await api.post('/api/v1/vehicles', companyCar({ category: '2' }))).status).toBe(400);

    const v = await create(companyCar({ category: 3 }));
    const { category: _k, ...rest } = v;
    expect((await api.put(`/api/v1/vehicles/${v.id}`, rest)).body.category).toBe(3);
    expect((await api.put(`/api/v1/vehicles/${v.id}`, { ...rest, category: 2 })).body.category).toBe(2);
    expect((await api.put(`/api/v1/vehicles/${v.id}`, { ...rest, category: 0 })).body.category).toBeNull();
    expect((await api.get(`/api/v1/vehicles/${v.id}`)).body.category).toBeNull();
  });

  it('engineCapacityCc and enginePowerKw: whole numbers; omitted keeps, 0 clears; power 1..2000; both in detail and list', async () => {
    const v = await create(companyCar({ engineCapacityCc: 1598, enginePowerKw: 2000 }));
    expect(v).toMatchObject({ engineCapacityCc: 1598, enginePowerKw: 2000 });
    const { engineCapacityCc: _a, enginePowerKw: _b, ...rest } = v;
    const kept = await api.put(`/api/v1/vehicles/${v.id}`, rest);
    expect(kept.body).toMatchObject({ engineCapacityCc: 1598, enginePowerKw: 2000 });
    const powerCleared = await api.put(`/api/v1/vehicles/${v.id}`, { ...rest, enginePowerKw: 0 });
    expect(powerCleared.body).toMatchObject({ engineCapacityCc: 1598, enginePowerKw: null });
    const bothCleared = await api.put(`/api/v1/vehicles/${v.id}`, { ...rest, enginePowerKw: 0, engineCapacityCc: 0 });
    expect(bothCleared.body).toMatchObject({ engineCapacityCc: null, enginePowerKw: null });
    const set = await api.put(`/api/v1/vehicles/${v.id}`, { ...rest, enginePowerKw: 1, engineCapacityCc: 999 });
    expect(set.body).toMatchObject({ engineCapacityCc: 999, enginePowerKw: 1 });
    const listed = (await api.get('/api/v1/vehicles?pageSize=100')).body.items.find((x: any) => x.id === v.id);
    expect(listed).toMatchObject({ engineCapacityCc: 999, enginePowerKw: 1 });

    for (const enginePowerKw of [2001, -1, 1.5, '100']) {
      const res = await api.put(`/api/v1/vehicles/${v.id}`, { ...rest, enginePowerKw });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.errors)).toEqual(['enginePowerKw']);
      expect((await api.post('/api/v1/vehicles', companyCar({ enginePowerKw }))).status).toBe(400);
    }
    for (const engineCapacityCc of [-1, 1.5, '1600']) {
      const res = await api.post('/api/v1/vehicles', companyCar({ engineCapacityCc }));
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.errors)).toEqual(['engineCapacityCc']);
    }
    // Created without them (or with 0): none stored.
    const bare = await create(companyCar({ engineCapacityCc: 0, enginePowerKw: undefined }));
    expect(bare).toMatchObject({ engineCapacityCc: null, enginePowerKw: null });
  });

  it('fuel types: petrol, diesel, LPG, CNG, electric, plug-in hybrid, hybrid; others are 400', async () => {
    for (const fuelType of ['Petrol', 'Diesel', 'Lpg', 'Cng', 'Electric', 'PlugInHybrid', 'Hybrid'])
      expect((await create(companyCar({ fuelType }))).fuelType).toBe(fuelType);
    const bad = await api.post('/api/v1/vehicles', companyCar({ fuelType: 'Coal' }));
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(['fuelType']);
    const doc = await api.get('/api-reference/openapi.json');
    expect(doc.body.components.schemas.FuelType.enum).toHaveLength(7);
  });

  it('name is required and not blank', async () => {
    expect(Object.keys((await api.post('/api/v1/vehicles', companyCar({ name: '   ' }))).body.errors)).toEqual([
      'name',
    ]);
    const { name: _n, ...noName } = companyCar();
    expect((await api.post('/api/v1/vehicles', noName)).status).toBe(400);
  });

  it("a Personal vehicle's owner must be an employee of the caller's company; a Company vehicle has none", async () => {
    const mine = await employee(api);
    const personal = await create({ type: 'Personal', name: 'Own car', category: 1, ownerEmployeeId: mine.id });
    expect(personal).toMatchObject({ type: 'Personal', ownerEmployeeId: mine.id });

    const other = await stack.tenant('SI');
    const theirs = await employee(other.api);
    for (const ownerEmployeeId of [theirs.id, MISSING_ID]) {
      const res = await api.post('/api/v1/vehicles', { type: 'Personal', name: 'x', category: 1, ownerEmployeeId });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.errors)).toEqual(['ownerEmployeeId']);
    }
    const noOwner = await api.post('/api/v1/vehicles', { type: 'Personal', name: 'x', category: 1 });
    expect(Object.keys(noOwner.body.errors)).toEqual(['ownerEmployeeId']);
    const companyWithOwner = await api.post('/api/v1/vehicles', companyCar({ ownerEmployeeId: mine.id }));
    expect(Object.keys(companyWithOwner.body.errors)).toEqual(['ownerEmployeeId']);
    // Moving it to another company's employee on update is refused as well, and changes nothing.
    const moved = await api.put(`/api/v1/vehicles/${personal.id}`, { ...personal, ownerEmployeeId: theirs.id });
    expect(moved.status).toBe(400);
    expect((await api.get(`/api/v1/vehicles/${personal.id}`)).body).toEqual(personal);
  });

  it('archive returns isArchived true (twice changes nothing); unarchive makes it active; the isArchived filter', async () => {
    const v = await create();
    const archived = await api.post(`/api/v1/vehicles/${v.id}/archive`);
    expect(archived.status).toBe(200);
    expect(archived.body).toMatchObject({ ...v, isArchived: true, editedAt: expect.any(String) });
    const again = await api.post(`/api/v1/vehicles/${v.id}/archive`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(archived.body);
    expect((await api.get(`/api/v1/vehicles/${v.id}`)).body).toEqual(archived.body);

    const archivedIds = (await api.get('/api/v1/vehicles?isArchived=true&pageSize=100')).body.items.map(
      (x: any) => x.id,
    );
    const activeIds = (await api.get('/api/v1/vehicles?isArchived=false&pageSize=100')).body.items.map(
      (x: any) => x.id,
    );
    expect(archivedIds).toContain(v.id);
    expect(activeIds).not.toContain(v.id);
    // A PUT cannot unarchive (isArchived is read-only there).
    expect((await api.put(`/api/v1/vehicles/${v.id}`, { ...archived.body, isArchived: false })).body.isArchived).toBe(
      true,
    );

    const active = await api.post(`/api/v1/vehicles/${v.id}/unarchive`);
    expect(active.status).toBe(200);
    expect(active.body.isArchived).toBe(false);
    expect((await api.post(`/api/v1/vehicles/${v.id}/unarchive`)).body.isArchived).toBe(false);
    expect((await api.post(`/api/v1/vehicles/${MISSING_ID}/archive`)).status).toBe(404);
  });

  it('delete: 204 for an archived vehicle without uses or costs; 409 with a cost, unchanged; 204 once the cost is removed', async () => {
    const archived = await create();
    await api.post(`/api/v1/vehicles/${archived.id}/archive`);
    expect((await api.delete(`/api/v1/vehicles/${archived.id}`)).status).toBe(204);

    const v = await create();
    const cost = await api.post(`/api/v1/vehicles/${v.id}/costs`, {
      date: '2026-10-12',
      kind: 'Fuel',
      amount: 84.37,
      currency: 'EUR',
    });
    expect(cost.status).toBe(201);
    const refused = await api.delete(`/api/v1/vehicles/${v.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('CONFLICT');
    expect(refused.body.detail).toContain('1 cost');
    expect((await api.get(`/api/v1/vehicles/${v.id}`)).body).toEqual(v);
    // Archived or not, the rule is the same.
    await api.post(`/api/v1/vehicles/${v.id}/archive`);
    expect((await api.delete(`/api/v1/vehicles/${v.id}`)).status).toBe(409);

    expect((await api.delete(`/api/v1/vehicles/${v.id}/costs/${cost.body.id}`)).status).toBe(204);
    expect((await api.delete(`/api/v1/vehicles/${v.id}`)).status).toBe(204);
  });

  it('list: paged envelope, sorted by name, filters type and ownerEmployeeId; bad filters are 400', async () => {
    const t = await stack.tenant('CZ');
    const owner = await employee(t.api);
    await create(companyCar({ name: 'B car' }), t.api);
    await create(companyCar({ name: 'A car' }), t.api);
    const own = await create({ type: 'Personal', name: 'C car', category: 1, ownerEmployeeId: owner.id }, t.api);

    const page1 = await t.api.get('/api/v1/vehicles?pageSize=2');
    expect(page1.body).toMatchObject({ page: 1, pageSize: 2, total: 3, totalPages: 2 });
    expect(page1.body.items.map((v: any) => v.name)).toEqual(['A car', 'B car']);
    expect((await t.api.get('/api/v1/vehicles?pageSize=2&page=2')).body.items.map((v: any) => v.name)).toEqual([
      'C car',
    ]);
    expect((await t.api.get('/api/v1/vehicles?type=Personal')).body.items.map((v: any) => v.id)).toEqual([own.id]);
    expect((await t.api.get('/api/v1/vehicles?type=Company')).body.total).toBe(2);
    expect((await t.api.get(`/api/v1/vehicles?ownerEmployeeId=${owner.id}`)).body.items.map((v: any) => v.id)).toEqual([
      own.id,
    ]);
    for (const q of [
      'type=Truck',
      'type=3',
      'isArchived=maybe',
      'ownerEmployeeId=abc',
      'pageSize=101',
      'page=0',
      'x=1',
    ])
      expect((await t.api.get(`/api/v1/vehicles?${q}`)).status).toBe(400);
  });

  describe('permissions', () => {
    let personalOfOwner: any;
    let ownerCaller: Awaited<ReturnType<typeof limitedCaller>>;
    let companyVehicle: any;

    beforeAll(async () => {
      ownerCaller = await limitedCaller(api, []);
      personalOfOwner = await create({
        type: 'Personal',
        name: 'Owner car',
        category: 1,
        ownerEmployeeId: ownerCaller.employeeId,
      });
      companyVehicle = await create();
    });

    /** Every write operation, on fresh vehicles so a 2xx of one does not disturb the others. */
    const writes = (id: string, costId: string) =>
      [
        ['create', 'POST', '/api/v1/vehicles', companyCar()],
        ['update', 'PUT', `/api/v1/vehicles/${id}`, companyCar()],
        ['archive', 'POST', `/api/v1/vehicles/${id}/archive`, {}],
        ['unarchive', 'POST', `/api/v1/vehicles/${id}/unarchive`, {}],
        [
          'add a cost',
          'POST',
          `/api/v1/vehicles/${id}/costs`,
          { date: '2026-10-01', kind: 'Toll', amount: 5, currency: 'EUR' },
        ],
        [
          'update a cost',
          'PUT',
          `/api/v1/vehicles/${id}/costs/${costId}`,
          { date: '2026-10-01', kind: 'Toll', amount: 6, currency: 'EUR' },
        ],
        ['remove a cost', 'DELETE', `/api/v1/vehicles/${id}/costs/${costId}`, undefined],
        ['delete', 'DELETE', `/api/v1/vehicles/${id}`, undefined],
      ] as const;

    async function expectAllWrites(client: ApiClient, status: number, vehicle = companyVehicle) {
      const cost = await api.post(`/api/v1/vehicles/${vehicle.id}/costs`, {
        date: '2026-10-01',
        kind: 'Parking',
        amount: 2.5,
        currency: 'EUR',
      });
      for (const [label, method, path, body] of writes(vehicle.id, cost.body.id)) {
        const res = await client.request(method, path, body);
        expect({ label, status: res.status }).toEqual({ label, status });
        if (status === 403) expect(res.body.code).toBe('FORBIDDEN');
      }
      // A refused caller changed nothing.
      if (status === 403) expect((await api.get(`/api/v1/vehicles/${vehicle.id}`)).body).toEqual(vehicle);
    }

    it('no permission: 403 on every write', async () => {
      await expectAllWrites((await limitedCaller(api, [])).api, 403);
    });

    it('ManageCompanyData alone no longer grants vehicle writes: 403 on every write', async () => {
      await expectAllWrites((await limitedCaller(api, ['ManageCompanyData'])).api, 403);
    });

    it('every other flag but ManageVehicles: still 403 on every write', async () => {
      const flags = [
        'ManageCompanyData',
        'ManageEmployees',
        'EditAllEntries',
        'ReadAllEntries',
        'ApproveEntries',
        'ManagePayouts',
      ];
      await expectAllWrites((await limitedCaller(api, flags)).api, 403);
    });

    it("the Personal vehicle's owner without ManageVehicles may read it but not write it", async () => {
      expect((await ownerCaller.api.get(`/api/v1/vehicles/${personalOfOwner.id}`)).status).toBe(200);
      await expectAllWrites(ownerCaller.api, 403, personalOfOwner);
    });

    it('FleetManager (the preset: ReadAllEntries + ManageVehicles) may do every write', async () => {
      const fleet = await limitedCaller(api, ['FleetManager']);
      const emp = await api.get(`/api/v1/employees/${fleet.employeeId}`);
      expect([...emp.body.permissions].sort()).toEqual(['ManageVehicles', 'ReadAllEntries']);
      const v = await create();
      const cost = await api.post(`/api/v1/vehicles/${v.id}/costs`, {
        date: '2026-10-01',
        kind: 'Fuel',
        amount: 1,
        currency: 'EUR',
      });
      const expected: Record<string, number> = {
        create: 201,
        update: 200,
        archive: 200,
        unarchive: 200,
        'add a cost': 201,
        'update a cost': 200,
        'remove a cost': 204,
        delete: 409, // the cost added by 'add a cost' is still there
      };
      for (const [label, method, path, body] of writes(v.id, cost.body.id)) {
        const res = await fleet.api.request(method, path, body);
        expect({ label, status: res.status }).toEqual({ label, status: expected[label] });
      }
    });

    it('CompanyAdmin holds ManageVehicles', async () => {
      const admin = await limitedCaller(api, ['CompanyAdmin']);
      expect((await admin.api.post('/api/v1/vehicles', companyCar())).status).toBe(201);
    });

    it("another employee's Personal vehicle: 404 and not listed, unless ManageVehicles or EditAllEntries", async () => {
      const stranger = await limitedCaller(api, ['ManageCompanyData', 'ReadAllEntries']);
      expect((await stranger.api.get(`/api/v1/vehicles/${personalOfOwner.id}`)).status).toBe(404);
      expect((await stranger.api.get(`/api/v1/vehicles/${personalOfOwner.id}/costs`)).status).toBe(404);
      const strangerList = (await stranger.api.get('/api/v1/vehicles?pageSize=100')).body;
      expect(strangerList.items.map((v: any) => v.id)).not.toContain(personalOfOwner.id);
      expect(strangerList.items.map((v: any) => v.id)).toContain(companyVehicle.id);
      expect(strangerList.items.every((v: any) => v.type === 'Company')).toBe(true);
      expect(strangerList.total).toBe(strangerList.items.length);
      // The owner sees their own vehicle, in the list too.
      const ownerList = (await ownerCaller.api.get('/api/v1/vehicles?type=Personal&pageSize=100')).body.items;
      expect(ownerList.map((v: any) => v.id)).toEqual([personalOfOwner.id]);

      for (const flags of [['ManageVehicles'], ['EditAllEntries']]) {
        const privileged = await limitedCaller(api, flags);
        expect((await privileged.api.get(`/api/v1/vehicles/${personalOfOwner.id}`)).status).toBe(200);
        const ids = (await privileged.api.get('/api/v1/vehicles?type=Personal&pageSize=100')).body.items.map(
          (v: any) => v.id,
        );
        expect(ids).toContain(personalOfOwner.id);
      }
    });
  });

  it("another company's vehicle is 404 for every operation, and never listed", async () => {
    const other = await stack.tenant('PL');
    const theirs = await create(companyCar(), other.api);
    const theirCost = await other.api.post(`/api/v1/vehicles/${theirs.id}/costs`, {
      date: '2026-10-01',
      kind: 'Fuel',
      amount: 10,
      currency: 'PLN',
    });
    const id = theirs.id;
    const cost = { date: '2026-10-01', kind: 'Fuel', amount: 1, currency: 'EUR' };
    const calls: [string, string, unknown][] = [
      ['GET', `/api/v1/vehicles/${id}`, undefined],
      ['PUT', `/api/v1/vehicles/${id}`, companyCar()],
      ['DELETE', `/api/v1/vehicles/${id}`, undefined],
      ['POST', `/api/v1/vehicles/${id}/archive`, {}],
      ['POST', `/api/v1/vehicles/${id}/unarchive`, {}],
      ['GET', `/api/v1/vehicles/${id}/costs`, undefined],
      ['POST', `/api/v1/vehicles/${id}/costs`, cost],
      ['PUT', `/api/v1/vehicles/${id}/costs/${theirCost.body.id}`, cost],
      ['DELETE', `/api/v1/vehicles/${id}/costs/${theirCost.body.id}`, undefined],
    ];
    for (const [method, path, body] of calls) {
      const res = await api.request(method, path, body);
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 404 });
    }
    expect((await api.get('/api/v1/vehicles?pageSize=100')).body.items.map((v: any) => v.id)).not.toContain(id);
    expect((await other.api.get(`/api/v1/vehicles/${id}`)).body).toEqual(theirs);
  });
});
