// Every rule of an employee's `costCenterIds`, through the gateway: omitted on create is empty
// (unrestricted); on update omitted keeps, [] clears, non-empty replaces; every id must be a cost center of
// the caller's company (400 keyed costCenterIds); at most 100 DISTINCT ids, duplicates counting once.
import type { TravelClient } from '@travel/client';
import type { ApiClient } from '@travel/testkit';
import { MISSING_ID, costCenter, employee, unique, writable } from '@travel/employees/test/support/org-fixtures';
import { startE2eStack, type E2eStack } from './support/stack';

describe('employees: costCenterIds', () => {
  let stack: E2eStack;
  let api: ApiClient;
  let client: TravelClient;
  let cc: string[];

  beforeAll(async () => {
    stack = await startE2eStack('emp-cc', { RATE_LIMIT_BURST: '5000' });
    ({ api, client } = await stack.tenant('CZ'));
    const prefix = unique('CC');
    cc = [];
    // 101 cost centers: enough to cross the limit of 100 distinct ids.
    for (let i = 0; i < 101; i += 20) {
      const batch = Array.from({ length: Math.min(20, 101 - i) }, (_, j) =>
        costCenter(api, `${prefix}-${String(i + j).padStart(3, '0')}`),
      );
      cc.push(...(await Promise.all(batch)));
    }
    expect(new Set(cc).size).toBe(101);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const put = (id: string, body: Record<string, unknown>) => api.put(`/api/v1/employees/${id}`, body);
  const stored = async (id: string) =>
    (await client.api.GET('/api/v1/employees/{id}', { params: { path: { id } } })).data!.costCenterIds;

  describe('on create', () => {
    it('omitted → empty (unrestricted)', async () => {
      const e = await employee(api);
      expect(e.costCenterIds).toEqual([]);
      expect(await stored(e.id)).toEqual([]);
    });

    it('[] → empty', async () => {
      expect((await employee(api, { costCenterIds: [] })).costCenterIds).toEqual([]);
    });

    it('a list → stored as given, in order', async () => {
      const e = await employee(api, { costCenterIds: [cc[2], cc[0]] });
      expect(e.costCenterIds).toEqual([cc[2], cc[0]]);
      expect(await stored(e.id)).toEqual([cc[2], cc[0]]);
    });
  });

  describe('on update', () => {
    let id: string;
    let base: Record<string, unknown>;

    beforeEach(async () => {
      const e = await employee(api, { costCenterIds: [cc[0], cc[1]] });
      id = e.id;
      base = writable(e);
      delete base.costCenterIds;
    });

    it('omitted → keeps the stored list', async () => {
      const res = await put(id, { ...base, position: 'Moved' });
      expect(res.status).toBe(200);
      expect(res.body.costCenterIds).toEqual([cc[0], cc[1]]);
      expect(await stored(id)).toEqual([cc[0], cc[1]]);
    });

    it('[] → clears it (unrestricted again)', async () => {
      const res = await put(id, { ...base, costCenterIds: [] });
      expect(res.body.costCenterIds).toEqual([]);
      expect(await stored(id)).toEqual([]);
    });

    it('non-empty → replaces it entirely (not a merge)', async () => {
      const res = await put(id, { ...base, costCenterIds: [cc[5]] });
      expect(res.body.costCenterIds).toEqual([cc[5]]);
      expect(await stored(id)).toEqual([cc[5]]);
    });

    it('a refused update leaves the stored list untouched', async () => {
      const res = await put(id, { ...base, costCenterIds: [cc[5], MISSING_ID] });
      expect(res.status).toBe(400);
      expect(await stored(id)).toEqual([cc[0], cc[1]]);
    });
  });

  describe("every id must be a cost center of the caller's company", () => {
    it('an unknown id → 400 VALIDATION_FAILED keyed costCenterIds, naming it', async () => {
      const res = await api.post('/api/v1/employees', {
        firstName: 'A',
        lastName: 'B',
        costCenterIds: [cc[0], MISSING_ID],
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED' });
      expect(Object.keys(res.body.errors)).toEqual(['costCenterIds']);
      expect(res.body.errors.costCenterIds[0]).toContain(MISSING_ID);
    });

    it("another company's cost center → 400 keyed costCenterIds, on create and on update", async () => {
      const other = (await stack.tenant('SK')).api;
      const theirs = await costCenter(other);
      const create = await api.post('/api/v1/employees', { firstName: 'A', lastName: 'B', costCenterIds: [theirs] });
      expect(create.status).toBe(400);
      expect(Object.keys(create.body.errors)).toEqual(['costCenterIds']);
      const e = await employee(api);
      const update = await put(e.id, { ...writable(e), costCenterIds: [cc[0], theirs] });
      expect(update.status).toBe(400);
      expect(Object.keys(update.body.errors)).toEqual(['costCenterIds']);
      // …and the other company's own employee may use it.
      expect(
        (await other.post('/api/v1/employees', { firstName: 'C', lastName: 'D', costCenterIds: [theirs] })).status,
      ).toBe(201);
    });

    it('a malformed id → 400 keyed by its position', async () => {
      const res = await api.post('/api/v1/employees', {
        firstName: 'A',
        lastName: 'B',
        costCenterIds: [cc[0], 'not-a-uuid'],
      });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.errors)).toEqual(['costCenterIds[1]']);
    });

    it('an inactive cost center of the company is accepted (it still belongs to the company)', async () => {
      const inactive = await costCenter(api, unique('OFF-'), { isActive: false });
      expect((await employee(api, { costCenterIds: [inactive] })).costCenterIds).toEqual([inactive]);
    });

    it('an id in upper case names the same cost center', async () => {
      expect((await employee(api, { costCenterIds: [cc[3].toUpperCase()] })).costCenterIds).toEqual([cc[3]]);
    });
  });

  describe('at most 100 distinct ids; duplicates count once', () => {
    it('100 distinct ids are accepted', async () => {
      const e = await employee(api, { costCenterIds: cc.slice(0, 100) });
      expect(e.costCenterIds).toEqual(cc.slice(0, 100));
    });

    it('101 items that are 100 distinct ids are accepted (the contract has no maxItems on the request)', async () => {
      const items = [...cc.slice(0, 100), cc[42]];
      expect(items).toHaveLength(101);
      const e = await employee(api, { costCenterIds: items });
      expect(e.costCenterIds).toEqual(cc.slice(0, 100));
    });

    it('duplicates are stored once, in first-seen order', async () => {
      const e = await employee(api, { costCenterIds: [cc[7], cc[3], cc[7], cc[3], cc[7]] });
      expect(e.costCenterIds).toEqual([cc[7], cc[3]]);
    });

    it('hundreds of repeats of few ids are accepted', async () => {
      const items = Array.from({ length: 500 }, (_, i) => cc[i % 3]);
      expect((await employee(api, { costCenterIds: items })).costCenterIds).toEqual([cc[0], cc[1], cc[2]]);
    });

    it('101 distinct ids → 400 keyed costCenterIds, on create and on update', async () => {
      const create = await api.post('/api/v1/employees', { firstName: 'A', lastName: 'B', costCenterIds: cc });
      expect(create.status).toBe(400);
      expect(create.body.errors).toEqual({
        costCenterIds: ['must name at most 100 distinct cost centers (names 101)'],
      });
      const e = await employee(api, { costCenterIds: [cc[0]] });
      const update = await put(e.id, { ...writable(e), costCenterIds: [...cc, ...cc] });
      expect(update.status).toBe(400);
      expect(update.body.errors).toEqual({
        costCenterIds: ['must name at most 100 distinct cost centers (names 101)'],
      });
      expect(await stored(e.id)).toEqual([cc[0]]);
    });

    it('the published contract says so honestly: no request maxItems, the distinct limit documented; the stored list is maxItems 100, unique', async () => {
      const contract = (await api.get('/api-reference/openapi.json')).body;
      const request = contract.components.schemas.EmployeeWrite.properties.costCenterIds;
      expect(request.maxItems).toBeUndefined();
      expect(request.uniqueItems).toBeUndefined();
      expect(request['x-maxDistinctItems']).toBe(100);
      expect(request.description).toMatch(/100 DISTINCT/);
      const response = contract.components.schemas.Employee.properties.costCenterIds;
      expect(response).toMatchObject({ maxItems: 100, uniqueItems: true });
    });
  });

  describe('deleting a cost center an employee may charge', () => {
    it('is 409 CONFLICT until no employee names it', async () => {
      const target = await costCenter(api, unique('DEL-'));
      const e = await employee(api, { costCenterIds: [target, cc[0]] });
      const refused = await api.delete(`/api/v1/cost-centers/${target}`);
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: 'CONFLICT' });
      expect((await put(e.id, { ...writable(e), costCenterIds: [cc[0]] })).status).toBe(200);
      expect((await api.delete(`/api/v1/cost-centers/${target}`)).status).toBe(204);
    });
  });
});
